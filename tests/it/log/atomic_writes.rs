//! Nothing lost on disk: on a filesystem that fills up mid-write, a render
//! fails with a non-zero exit, the file it was replacing survives byte for
//! byte, and no temporary file is left beside it.
//!
//! The small filesystem is a 96 KB tmpfs mounted in a private mount
//! namespace (`unshare -rm`), so the test needs no root and leaves nothing
//! mounted. Where `unshare -rm` cannot make one, the tests say so and
//! pass, except under `CI=true`, where they fail. `src/kit/atomic.rs` tests the
//! same with a writer that fails after N bytes, on any machine.

use crate::common;

use std::process::Command;

/// Runs `script` in a private mount namespace with a 96 KB tmpfs at `$D`,
/// or `None` where this machine cannot make one.
fn on_a_small_disk(script: &str) -> Option<String> {
    let probe = Command::new("unshare").args(["-rm", "true"]).status();
    if !probe.is_ok_and(|s| s.success()) {
        common::skip("`unshare -rm` cannot make a private mount namespace here");
        return None;
    }
    let dir = common::temp_dir("atomic-writes");
    let mount = dir.join("disk");
    std::fs::create_dir_all(&mount).unwrap();
    let full = format!(
        "set -u\nD={}\nmount -t tmpfs -o size=96k tmpfs \"$D\" || exit 99\n{script}",
        mount.display()
    );
    let out = Command::new("unshare")
        .args(["-rm", "sh", "-c", &full])
        .env("SUNFOLD", env!("CARGO_BIN_EXE_sunfold"))
        .env("REPO", common::repo())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "the script failed: {}\n{stdout}{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Some(stdout)
}

#[test]
fn given_a_full_disk_when_a_render_replaces_a_file_then_the_old_file_survives_and_no_temporary_is_left()
 {
    // Each output is far larger than the room left: the sheet PDF embeds
    // its fonts, the SVG and HTML hold every page.
    let script = r#"
for out in sheet.pdf sheet.svg match.html; do
  printf 'the old %s, kept\n' "$out" > "$D/$out"
done
head -c 80000 /dev/zero > "$D/filler"
before=$(cd "$D" && sha256sum sheet.pdf sheet.svg match.html)
"$SUNFOLD" render sheet "$REPO/sheet-templates/62-soleils-d-ete.json" -o "$D/sheet.pdf" 2>"$D/../pdf.err"; echo "pdf exit $?"
"$SUNFOLD" render sheet "$REPO/sheet-templates/62-soleils-d-ete.json" -o "$D/sheet.svg" 2>"$D/../svg.err"; echo "svg exit $?"
"$SUNFOLD" render replay "$REPO/replays/soleils-4p-sun-limit.jsonl" -o "$D/match.html" 2>"$D/../html.err"; echo "html exit $?"
after=$(cd "$D" && sha256sum sheet.pdf sheet.svg match.html)
[ "$before" = "$after" ] && echo "old files intact" || echo "old files CHANGED"
echo "left: $(ls -A "$D" | tr '\n' ' ')"
cat "$D/../pdf.err"
"#;
    let Some(out) = on_a_small_disk(script) else {
        return;
    };
    assert!(out.contains("pdf exit 2"), "{out}");
    assert!(out.contains("svg exit 2"), "{out}");
    assert!(out.contains("html exit 2"), "{out}");
    assert!(out.contains("old files intact"), "{out}");
    assert!(
        out.contains("left: filler match.html sheet.pdf sheet.svg \n"),
        "only the old files are left: {out}"
    );
    assert!(out.contains("no space left on device"), "{out}");
}

#[test]
fn given_room_on_the_disk_when_a_render_replaces_a_file_then_it_holds_the_new_one() {
    let script = r#"
printf 'the old sheet\n' > "$D/sheet.svg"
"$SUNFOLD" render sheet "$REPO/sheet-templates/62-soleils-d-ete.json" -o "$D/sheet.svg" 2>/dev/null; echo "svg exit $?"
head -c 5 "$D/sheet.svg"; echo
echo "left: $(ls -A "$D" | tr '\n' ' ')"
"#;
    // The bundled sheet's SVG fits in 96 KB with room to spare.
    let Some(out) = on_a_small_disk(script) else {
        return;
    };
    assert!(out.contains("svg exit 0"), "{out}");
    assert!(out.contains("<?xml") || out.contains("<svg"), "{out}");
    assert!(out.contains("left: sheet.svg \n"), "{out}");
}
