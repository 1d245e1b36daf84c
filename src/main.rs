use std::process::ExitCode;

fn main() -> ExitCode {
    sunfold::cli::main()
}
