//! Helpers shared by the integration tests.

pub mod driver;
pub mod layout;
pub mod schema;

use std::path::{Path, PathBuf};
use sunfold::soleils::template::RawTemplate;
use sunfold::soleils::{Options, Start};

/// Whether this run is CI's (`CI=true`, as `.ci/run` is run): there every
/// tool and font the tests read with is installed, so none may be missing.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// A test that cannot run on this machine, for `why` (a tool or a font is
/// missing): under `CI=true` it fails, as `.ci/run` installs everything
/// the tests use; elsewhere it says why on standard error, and the caller
/// returns.
#[track_caller]
pub fn skip(why: &str) {
    assert!(
        !in_ci(),
        "{why}: under CI=true no test may skip (.ci/run installs every tool and font the tests use)"
    );
    eprintln!("skipped: {why}");
}

/// The repository the tests read and run in: this checkout, or the copy
/// that `SUNFOLD_TEST_REPO` names. The docs' test of the page on testing a
/// rule change runs the page's `cargo test` as this binary in a copy of the
/// repository, so that the copy needs no second build.
pub fn repo() -> PathBuf {
    match std::env::var_os(REPO_VARIABLE) {
        Some(copy) => PathBuf::from(copy),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    }
}

/// The variable that points [`repo`] at a copy of the repository.
pub const REPO_VARIABLE: &str = "SUNFOLD_TEST_REPO";

/// Insta settings that keep every snapshot in the repo's `snapshots/`.
pub fn snapshots() -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(repo().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings
}

pub fn default_template() -> RawTemplate {
    let path = repo().join("sheet-templates/62-soleils-d-ete.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub fn start(names: &[&str], options: Options, template: RawTemplate) -> Start {
    Start {
        format: sunfold::log::LOG_FORMAT,
        game: "soleils".into(),
        players: names.iter().map(|n| n.to_string()).collect(),
        options,
        template,
        dice_seed: None,
    }
}

/// Runs the sunfold binary and returns (exit code, stdout, stderr).
pub fn sunfold(args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("the binary runs");
    outcome(output)
}

/// A finished run's exit code, standard output and standard error.
fn outcome(output: std::process::Output) -> (i32, String, String) {
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// How long a command that should stop at once may run before
/// [`sunfold_or_hang`] calls it hung: minutes, so that a loaded machine
/// never fails a test by its clock.
pub const HANG: std::time::Duration = std::time::Duration::from_secs(300);

/// Runs the sunfold binary as [`sunfold`] does, for a command that must
/// stop on its own (refuse its arguments, say) rather than do hours of
/// work: one still running after [`HANG`] is killed and fails the test.
pub fn sunfold_or_hang(args: &[&str]) -> (i32, String, String) {
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .args(args)
        .current_dir(repo())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let pid = child.id();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(child.wait_with_output()));
    match receive.recv_timeout(HANG) {
        Ok(output) => outcome(output.expect("the binary runs")),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("sunfold {args:?} still ran after {HANG:?}, and was killed");
        }
    }
}

/// A new 62 Soleils log of Ann and Bob, with digital dice from seed 62,
/// named `name` in the test's own folder: the table the serving tests
/// start from.
pub fn new_soleils_table(test: &str, name: &str) -> String {
    let log = fresh(test, name);
    let (code, _, stderr) = sunfold(&[
        "new",
        "soleils",
        &log,
        "--players",
        "Ann,Bob",
        "--dice-seed",
        "62",
    ]);
    assert_eq!(code, 0, "{stderr}");
    log
}

/// Runs a drawing command (`args`, without `-o`) into SVG files in a
/// fresh folder of the test's own, and returns each page's SVG in page
/// order: `out.svg` when there is one page, else `out-1.svg`, `out-2.svg`, …
pub fn svg_pages(test: &str, args: &[&str]) -> Vec<String> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp_dir(test).join(format!("svg-{call}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("out.svg").display().to_string();
    let mut all = args.to_vec();
    all.extend(["-o", &out]);
    let (code, _, stderr) = sunfold(&all);
    assert_eq!(code, 0, "{all:?}: {stderr}");
    if let Ok(one) = std::fs::read_to_string(&out) {
        return vec![one];
    }
    let mut pages = Vec::new();
    while let Ok(page) = std::fs::read_to_string(dir.join(format!("out-{}.svg", pages.len() + 1))) {
        pages.push(page);
    }
    assert!(!pages.is_empty(), "{all:?} wrote no SVG");
    pages
}

/// What a drawing command wrote at `path`: the file itself, or, for an SVG
/// of several pages, the files of its pages (`NAME-1.svg`, …) one after
/// the other.
pub fn written(path: &Path) -> Vec<u8> {
    if let Ok(bytes) = std::fs::read(path) {
        return bytes;
    }
    let stem = path.file_stem().unwrap().to_str().unwrap();
    let pages: Vec<Vec<u8>> = (1..)
        .map(|i| path.with_file_name(format!("{stem}-{i}.svg")))
        .map_while(|page| std::fs::read(page).ok())
        .collect();
    assert!(!pages.is_empty(), "nothing written at {}", path.display());
    pages.concat()
}

/// Every file with this extension directly under `dir`, sorted.
pub fn files(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// Every Rust file under `dir`, at any depth, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// A test's own temporary folder, `sunfold-TEST-PID`.
pub fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sunfold-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A test's own temporary folder, `sunfold-TEST-PID`, emptied first.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sunfold-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `sunfold ARGS`, which must succeed: its standard output.
pub fn run_ok(args: &[&str]) -> String {
    let (code, stdout, stderr) = sunfold(args);
    assert_eq!(code, 0, "sunfold {args:?} failed: {stderr}");
    stdout
}

/// A path for a test's file in its own folder, with no file there yet.
pub fn fresh(test: &str, name: &str) -> String {
    let path = temp_dir(test).join(name);
    let _ = std::fs::remove_file(&path);
    path.display().to_string()
}

/// A `PATH` on which `sunfold` is the binary under test: a link to it in
/// `bin`, first.
pub fn path_with_sunfold(bin: &Path) -> String {
    std::fs::create_dir_all(bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_sunfold"), bin.join("sunfold")).unwrap();
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// Copies a file, or a folder and everything in it.
pub fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// `sunfold serve LOG --listen 127.0.0.1:0 --format json` and `args`,
/// killed when dropped, with the links it printed.
pub struct Served {
    pub child: std::process::Child,
    pub links: serde_json::Value,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn serve(log: &str, args: &[&str]) -> Served {
    serve_with(&[&[log], args].concat())
}

/// `sunfold serve ARGS --listen 127.0.0.1:0 --format json` (a room with
/// `--event EVENT`), killed when dropped, with the links it printed.
pub fn serve_with(args: &[&str]) -> Served {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sunfold"))
        .arg("serve")
        .args(args)
        .args(["--listen", "127.0.0.1:0", "--format", "json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().expect("piped"))
        .read_line(&mut first)
        .expect("the server prints its links");
    let links = serde_json::from_str(&first).expect("one JSON line of links");
    Served { child, links }
}

impl Served {
    /// The token in a join link.
    pub fn token(&self, who: &str) -> String {
        let url = match who {
            "referee" => &self.links["referee"],
            player => &self.links["players"][player],
        };
        url.as_str()
            .and_then(|u| u.split("#token=").nth(1))
            .expect("a link with a token")
            .to_owned()
    }

    /// The join link of a player, or the referee's.
    pub fn link(&self, who: &str) -> String {
        match who {
            "referee" => self.links["referee"].as_str().unwrap().to_owned(),
            player => self.links["players"][player].as_str().unwrap().to_owned(),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn base(&self) -> String {
        format!("http://{}", self.links["listen"].as_str().unwrap())
    }
}

/// The event of the first choice of `group` that a table page's view
/// (`/api/view`) offers.
pub fn first_choice(view: &serde_json::Value, group: &str) -> serde_json::Value {
    view["choices"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["group"] == group)
        .unwrap_or_else(|| panic!("no {group} among {}", view["choices"]))["event"]
        .clone()
}

/// The bundled Summertime deck as written.
pub fn summertime_deck() -> sunfold::summertime::deck::RawDeck {
    let path = repo().join("sheet-templates/summertime.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The start of a physical Summertime table on the bundled deck: Ann and
/// Ben, Ann first, the closing cards up on sides 0, 1, 0, recorded in log
/// format `format`.
pub fn physical_start(format: u32) -> sunfold::summertime::Start {
    sunfold::summertime::Start {
        format,
        game: "summertime".to_owned(),
        players: vec!["Ann".to_owned(), "Ben".to_owned()],
        first: "Ann".to_owned(),
        deck: summertime_deck(),
        order: sunfold::summertime::Order::Physical {
            closing_up: [0, 1, 0],
        },
    }
}
