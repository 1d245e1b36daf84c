use std::process::ExitCode;

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`sunfold status
    // log | head`) would panic. Restore the default: end quietly, like any
    // Unix tool.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to SIG_DFL before any thread
    // starts has no memory-safety consequence.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    sunfold::cli::main()
}
