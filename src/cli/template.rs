//! `sunfold template check`.

use super::load::{LoadError, load_template};
use super::{Exit, io_error};
use std::path::Path;

pub fn check(path: &Path) -> Exit {
    let shown = path.display();
    match load_template(path) {
        Ok(template) => {
            println!(
                "{shown}: ok: \"{}\", {} boxes in {} zones, {} constraints, {} sun thresholds, {} rounds, sun limit {}",
                template.name(),
                template.boxes().len(),
                template.zones().len(),
                template.constraints().len(),
                template.thresholds().len(),
                template.rounds(),
                template.sun_limit(),
            );
            Exit::Valid
        }
        Err(LoadError::Io(e)) => io_error(path, &e),
        Err(LoadError::Shape { path: at, detail }) => {
            eprintln!("{shown}: {at}: {detail}");
            Exit::Invalid
        }
        Err(LoadError::Invalid(errors)) => {
            for problem in errors.problems() {
                eprintln!("{shown}: {problem}");
            }
            let count = errors.problems().len();
            let plural = if count == 1 { "" } else { "s" };
            eprintln!("{shown}: {count} problem{plural}");
            Exit::Invalid
        }
    }
}
