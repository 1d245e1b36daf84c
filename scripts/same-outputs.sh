#!/usr/bin/env bash
# Run a sunfold binary over a broad, deterministic set of commands and keep
# every output, so that two builds can be compared byte for byte:
#
#   bash scripts/same-outputs.sh BIN OUTDIR
#
#   cargo build --release && bash scripts/same-outputs.sh target/release/sunfold /tmp/outputs-new \
#     && diff -r /tmp/outputs-base /tmp/outputs-new
#
# OUTDIR (which must not exist yet, or be empty) receives:
#   cmd/NAME.cmd     the command line, with the binary written as `sunfold`
#   cmd/NAME.stdout  its standard output
#   cmd/NAME.stderr  its standard error (throughput timings masked, see below)
#   cmd/NAME.exit    its exit code (124: killed by the per-command timeout)
#   files/...        every file the commands wrote: -o PDF/SVG/HTML, simulate --out
#                    logs, man --dir pages, the logs recorded live (rec/), repair's .torn
#   inputs.sha256    the inputs the commands read, so a changed input shows as such
#
# The commands run in a scratch folder holding copies of the inputs (replays/,
# tests/bad/, tests/rescore/, tests/templates/, sheet-templates/, assets/fonts/,
# docs/examples/), with relative paths only, so no output names OUTDIR or the
# scratch folder. The inputs come from the checkout holding this script, or
# from SAME_OUTPUTS_INPUTS=DIR (another checkout) if set.
#
# Determinism: fixed seeds, --jobs 2 for every parallel command; the only
# clock-dependent outputs are handled here:
#   - simulate/compare/ladder/audit print "N games in 0.01 s: 4000 games per
#     second" on stderr: the seconds and the rate are replaced by T and R;
#   - a panic's message names the OS thread id and the source file:line:col,
#     which moving code changes: replaced by N and LOCATION (the panic, its
#     message and exit code 101 are still compared);
#   - the recording verbs (new, roll, place, ... claim) stamp each line they
#     write with "at" from the clock: right after each such command the
#     script overwrites the "at" of the line just written with a fixed time
#     (before the next append, so the next line's "prev" hash, and the whole
#     chain, is computed by sunfold from the fixed bytes and stays valid). The
#     shape of every original stamp (digits replaced by N) is kept in
#     files/rec/*.at-shapes, so a change in how "at" is written still shows.
# Not covered: `serve` (it runs a server until killed, and its tokens come
# from the OS's randomness); only `serve --help` is. The server's answers
# (the page, /api/state and /api/view, for each game and each seat) are
# pinned instead by the snapshots of tests/it/serve/serve_answers.rs
# (snapshots/serve_answers__*.snap). Commands that would
# draw from the clock (`new` without --dice-seed/--seed) are not run.
set -u -o pipefail

if [ $# -ne 2 ]; then
    echo "usage: bash scripts/same-outputs.sh BIN OUTDIR" >&2
    exit 2
fi
for tool in jq sha256sum timeout; do
    command -v "$tool" >/dev/null || { echo "same-outputs: needs $tool" >&2; exit 2; }
done

BIN=$(realpath -e "$1") || { echo "same-outputs: no binary at $1" >&2; exit 2; }
mkdir -p "$2"
OUT=$(realpath "$2")
if [ -n "$(ls -A "$OUT")" ]; then
    echo "same-outputs: $OUT is not empty" >&2
    exit 2
fi
ROOT=${SAME_OUTPUTS_INPUTS:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
TIMEOUT=${SAME_OUTPUTS_TIMEOUT:-300}

export LC_ALL=C.UTF-8 TZ=UTC
unset SUNFOLD_TEST_TORN_WRITE RUST_BACKTRACE RUST_LOG NO_COLOR CLICOLOR CLICOLOR_FORCE

W=$(mktemp -d "${TMPDIR:-/tmp}/same-outputs.XXXXXX")
trap 'rm -rf "$W"' EXIT
C=$OUT/cmd
mkdir -p "$C" "$W/bin" "$W/files/rec"
# The binary is always called `sunfold`: clap names it after argv[0] in its usage lines.
ln -s "$BIN" "$W/bin/sunfold"
SUNFOLD=$W/bin/sunfold

inputs=(replays tests/bad tests/rescore tests/templates sheet-templates assets/fonts docs/examples)
for d in "${inputs[@]}"; do
    mkdir -p "$W/$(dirname "$d")"
    cp -r "$ROOT/$d" "$W/$d"
done
(cd "$W" && find "${inputs[@]}" -type f -print0 | sort -z | xargs -0 sha256sum) > "$OUT/inputs.sha256"

cd "$W"
COUNT=0

# run NAME ARGS...: run `sunfold ARGS...` in the scratch folder, keep its outputs.
run() {
    local name=$1
    shift
    if [ -e "$C/$name.exit" ]; then
        echo "same-outputs: script bug: $name used twice" >&2
        exit 3
    fi
    { printf 'sunfold'; printf ' %q' "$@"; printf '\n'; } > "$C/$name.cmd"
    timeout "$TIMEOUT" "$SUNFOLD" "$@" < /dev/null > "$C/$name.stdout" 2> "$C/$name.stderr"
    echo $? > "$C/$name.exit"
    sed -i -E -e 's/ in [0-9]+\.[0-9]+ s: [0-9.]+ (games|events) per second/ in T s: R \1 per second/' \
        -e "s/^thread '([^']*)' \([0-9]+\) panicked at [^ ]+:[0-9]+:[0-9]+:$/thread '\1' (N) panicked at LOCATION:/" \
        "$C/$name.stderr"
    COUNT=$((COUNT + 1))
}

# slug PATH: a name for a file: tests/bad/x.jsonl -> tests-bad-x
slug() {
    local s=${1%.jsonl}
    s=${s%.json}
    echo "${s//\//-}"
}

GOLDENS=(replays/*.jsonl docs/examples/*.jsonl)
BAD=(tests/bad/*.jsonl)
RESCORE_LOGS=(tests/rescore/*.jsonl)
ALL_LOGS=("${GOLDENS[@]}" "${BAD[@]}" "${RESCORE_LOGS[@]}")
# Sheets and decks every command takes; the "tolerant" ones pass `template
# check` but are refused by the other commands (errors, kept as such).
SHEETS=(sheet-templates/62-soleils-d-ete.json sheet-templates/petit-ete.json
    tests/templates/valid/thresholds-every-10.json)
DECKS=(sheet-templates/summertime.json tests/templates/valid/deck-mild-penalty.json
    tests/rescore/deck-ocean-1-worth-7.json tests/rescore/deck-ocean-1-renamed.json)
TOLERANT_SHEETS=(tests/templates/tolerant/byte-order-mark.json tests/templates/tolerant/sheet-unknown-values.json)
TOLERANT_DECKS=(tests/templates/tolerant/deck-unknown-fields.json)
FONT=assets/fonts/LiberationSans-Italic.ttf
J=(--jobs 2)
mkdir -p files

echo "same-outputs: help and usage errors" >&2
run version --version
run help --help
run help-short -h
run help-verb help
run no-args
for v in replay template "template check" render "render sheet" "render replay" "render cards" \
    new "new soleils" "new summertime" roll place crab sun bonus buy play end-turn flip pass reveal \
    discard append undo claim status repair simulate compare rescore ladder analyse hint audit serve \
    schema completions man; do
    # shellcheck disable=SC2086
    run "help-${v// /-}" $v --help
done
run help-render-sheet-short render sheet -h
run usage-unknown-verb frobnicate
run usage-replay-no-file replay
run usage-replay-missing-file replay missing.jsonl
run usage-replay-folder replay replays
run usage-replay-bad-format replay replays/soleils-12p.jsonl --format xml
run usage-simulate-unknown-game simulate chess
run usage-render-sheet-png render sheet sheet-templates/petit-ete.json -o files/x.png
run usage-render-sheet-no-output render sheet sheet-templates/petit-ete.json
run usage-schema-unknown schema nothing
run usage-completions-unknown completions tcsh

echo "same-outputs: every log: replay, status, audit, rescore, hint, analyse, render replay" >&2
for log in "${ALL_LOGS[@]}"; do
    s=$(slug "$log")
    run "replay-$s" replay "$log"
    run "replay-$s-json" replay "$log" --format json
    run "status-$s" status "$log"
    run "status-$s-json" status "$log" --format json
    run "status-$s-all" status "$log" --all
    run "status-$s-all-json" status "$log" --all --format json
    run "audit-$s" audit "$log" "${J[@]}"
    run "audit-$s-json" audit "$log" "${J[@]}" --format json
    run "audit-$s-strict" audit "$log" "${J[@]}" --strict-claims
    run "rescore-$s" rescore "$log" "${J[@]}"
    run "rescore-$s-json" rescore "$log" "${J[@]}" --format json
    run "hint-$s" hint "$log" --bot search:4 --seed 5
    run "hint-$s-json" hint "$log" --bot search:4 --seed 5 --format json
    run "analyse-$s" analyse "$log" --bot search:4 --seed 3 "${J[@]}"
    run "analyse-$s-json" analyse "$log" --bot search:4 --seed 3 "${J[@]}" --format json
    run "render-replay-$s-svg" render replay "$log" -o "files/replay-$s.svg"
done

echo "same-outputs: goldens: render replay, --at, partial logs" >&2
for log in "${GOLDENS[@]}"; do
    s=$(slug "$log")
    n=$(wc -l < "$log")
    mid=$((n / 2))
    run "render-replay-$s-pdf" render replay "$log" -o "files/replay-$s.pdf"
    run "render-replay-$s-html" render replay "$log" -o "files/replay-$s.html"
    run "render-replay-$s-letter-pdf" render replay "$log" -o "files/replay-$s-letter.pdf" --paper letter
    run "render-replay-$s-a5-svg" render replay "$log" -o "files/replay-$s-a5.svg" --paper a5
    run "render-replay-$s-font-pdf" render replay "$log" -o "files/replay-$s-font.pdf" --font "$FONT"
    run "render-replay-$s-stdout" render replay "$log" -o -
    run "render-replay-$s-at-$mid-pdf" render replay "$log" -o "files/replay-$s-at-$mid.pdf" --at "$mid"
    run "render-replay-$s-at-$mid-svg" render replay "$log" -o "files/replay-$s-at-$mid.svg" --at "$mid"
    run "render-replay-$s-at-$mid-html" render replay "$log" -o "files/replay-$s-at-$mid.html" --at "$mid"
    run "render-replay-$s-analyse-html" render replay "$log" -o "files/replay-$s-analyse.html" \
        --analyse --bot search:4 --seed 3
    run "render-replay-$s-at-beyond" render replay "$log" -o "files/replay-$s-at-beyond.svg" --at $((n + 5))
    for at in 0 1 $((n / 3)) "$mid" $((n - 2)) $((n + 5)); do
        run "replay-$s-at-$at" replay "$log" --at "$at"
        run "replay-$s-at-$at-json" replay "$log" --at "$at" --format json
    done
    mkdir -p files/partial
    for cut in 1 2 3 5 10 $((n / 3)) "$mid" $((2 * n / 3)) $((n - 1)); do
        p=files/partial/$s-$cut.jsonl
        [ -e "$p" ] && continue
        head -n "$cut" "$log" > "$p"
        ps=partial-$s-$cut
        run "status-$ps" status "$p"
        run "status-$ps-json" status "$p" --format json
        run "status-$ps-all-json" status "$p" --all --format json
        run "hint-$ps" hint "$p" --bot search:4 --seed 5
        run "hint-$ps-json" hint "$p" --bot search:4 --seed 5 --format json
        run "replay-$ps" replay "$p"
        run "analyse-$ps" analyse "$p" --bot search:4 --seed 3 "${J[@]}"
    done
    p=files/partial/$s-$mid.jsonl
    players=$(jq -r 'select(.seq == 0) | .players[]' "$log" | head -n 2)
    for who in $players Nobody; do
        run "hint-partial-$s-$mid-$who" hint "$p" "$who" --bot search:4 --seed 5
    done
    run "render-replay-partial-$s-$mid-svg" render replay "$p" -o "files/replay-partial-$s-$mid.svg"
    run "render-replay-partial-$s-$mid-html" render replay "$p" -o "files/replay-partial-$s-$mid.html"
done
run analyse-soleils-4p-search8 analyse replays/soleils-4p-sun-limit.jsonl --bot search:8 --seed 11 "${J[@]}"
run analyse-summertime-rulebook-default analyse replays/summertime-rulebook-examples.jsonl "${J[@]}"
run analyse-bad-bot analyse replays/soleils-12p.jsonl --bot greedy
run hint-bad-bot hint replays/soleils-12p.jsonl --bot random
run render-replay-analyse-svg render replay replays/soleils-12p.jsonl -o files/analyse.svg --analyse
run render-replay-missing-folder render replay replays/soleils-12p.jsonl -o missing/replay.pdf
run render-replay-bad-font render replay replays/soleils-12p.jsonl -o files/bad-font.pdf \
    --font sheet-templates/summertime.json

echo "same-outputs: audit and rescore over folders" >&2
for fmt in text json; do
    run "audit-replays-$fmt" audit replays/ "${J[@]}" --format "$fmt"
    run "audit-bad-$fmt" audit tests/bad "${J[@]}" --format "$fmt"
    run "audit-everything-$fmt" audit replays tests/bad tests/rescore docs/examples "${J[@]}" --format "$fmt"
    run "audit-everything-strict-$fmt" audit replays tests tests/rescore/soleils-undone-skip.jsonl \
        "${J[@]}" --format "$fmt" --strict-claims
    run "audit-missing-$fmt" audit replays missing.jsonl "${J[@]}" --format "$fmt"
    run "audit-jobs1-$fmt" audit replays tests/bad --jobs 1 --format "$fmt"
    run "rescore-replays-$fmt" rescore replays/ "${J[@]}" --format "$fmt"
    for opt in sun_bonus=exact sun_bonus=reach_or_pass skip_placement=only_when_blocked \
        skip_placement=voluntary sailboats=different solo=true nonsense=1 sun_bonus=maybe; do
        run "rescore-replays-$opt-$fmt" rescore replays/ "${J[@]}" --format "$fmt" --option "$opt"
        run "rescore-rescore-$opt-$fmt" rescore tests/rescore/ docs/examples "${J[@]}" --format "$fmt" --option "$opt"
    done
    run "rescore-replays-two-options-$fmt" rescore replays "${J[@]}" --format "$fmt" \
        --option sun_bonus=exact --option sailboats=different
    for t in "${SHEETS[@]}" "${DECKS[@]}" "${TOLERANT_SHEETS[@]}" "${TOLERANT_DECKS[@]}"; do
        ts=$(slug "$t")
        case " ${DECKS[*]} ${TOLERANT_DECKS[*]} " in
        *" $t "*) flag=--deck ;;
        *) flag=--template ;;
        esac
        run "rescore-replays-$flag-$ts-$fmt" rescore replays tests/rescore "${J[@]}" --format "$fmt" "$flag" "$t"
    done
    run "rescore-wrong-kind-template-$fmt" rescore replays "${J[@]}" --format "$fmt" --template sheet-templates/summertime.json
    run "rescore-wrong-kind-deck-$fmt" rescore replays "${J[@]}" --format "$fmt" --deck sheet-templates/petit-ete.json
    run "rescore-bad-template-$fmt" rescore replays "${J[@]}" --format "$fmt" --template tests/templates/many-problems.json
    run "rescore-bad-$fmt" rescore tests/bad "${J[@]}" --format "$fmt"
    run "rescore-missing-$fmt" rescore missing "${J[@]}" --format "$fmt"
done

echo "same-outputs: templates" >&2
for t in sheet-templates/*.json tests/templates/*.json tests/templates/*/*.json tests/rescore/*.json missing.json; do
    s=$(slug "$t")
    run "template-check-$s" template check "$t"
    run "template-check-$s-json" template check "$t" --format json
done
run template-check-log template check replays/soleils-12p.jsonl

echo "same-outputs: render sheet" >&2
for t in sheet-templates/summertime.json tests/templates/many-problems.json "${TOLERANT_SHEETS[@]}" missing.json; do
    s=$(slug "$t")
    run "sheet-$s-pdf" render sheet "$t" -o "files/sheet-$s.pdf"
    run "sheet-$s-large-svg" render sheet "$t" -o "files/sheet-$s-large.svg" --large-print
done
for t in "${SHEETS[@]}"; do
    s=$(slug "$t")
    for ext in pdf svg; do
        run "sheet-$s-$ext" render sheet "$t" -o "files/sheet-$s.$ext"
        for paper in letter a5; do
            run "sheet-$s-$paper-$ext" render sheet "$t" -o "files/sheet-$s-$paper.$ext" --paper "$paper"
        done
        for pp in 2 4; do
            for paper in a4 letter a5; do
                run "sheet-$s-per-page-$pp-$paper-$ext" render sheet "$t" \
                    -o "files/sheet-$s-per-page-$pp-$paper.$ext" --per-page "$pp" --paper "$paper"
            done
        done
        run "sheet-$s-copies-$ext" render sheet "$t" -o "files/sheet-$s-copies.$ext" --copies 3
        run "sheet-$s-names-$ext" render sheet "$t" -o "files/sheet-$s-names.$ext" --names "Ann,Bob,Chloé,Zoë"
        run "sheet-$s-names-copies-$ext" render sheet "$t" -o "files/sheet-$s-names-copies.$ext" \
            --names "Ann,Bob" --copies 2 --paper letter
        for paper in a4 letter a5; do
            run "sheet-$s-large-$paper-$ext" render sheet "$t" -o "files/sheet-$s-large-$paper.$ext" \
                --large-print --paper "$paper"
        done
        run "sheet-$s-large-names-$ext" render sheet "$t" -o "files/sheet-$s-large-names.$ext" \
            --large-print --names "Ann,Bob"
        run "sheet-$s-large-per-page-$ext" render sheet "$t" -o "files/sheet-$s-large-per-page.$ext" \
            --large-print --per-page 2
        run "sheet-$s-font-$ext" render sheet "$t" -o "files/sheet-$s-font.$ext" --font "$FONT"
        run "sheet-$s-large-font-$ext" render sheet "$t" -o "files/sheet-$s-large-font.$ext" \
            --font assets/fonts/LiberationSans-Bold.ttf --large-print --paper letter
    done
    run "sheet-$s-stdout" render sheet "$t" -o -
done
T=sheet-templates/62-soleils-d-ete.json
run sheet-names-empty render sheet "$T" -o files/refused.pdf --names "Ann,,Bob"
run sheet-names-long render sheet "$T" -o files/refused.pdf \
    --names "Maximilian Alexander Bartholomew von Hohenzollern-Sigmaringen the Younger"
run sheet-copies-0 render sheet "$T" -o files/refused.pdf --copies 0
run sheet-copies-501 render sheet "$T" -o files/refused.pdf --copies 501
run sheet-copies-40 render sheet "$T" -o files/sheet-copies-40.pdf --copies 40
run sheet-names-cjk render sheet "$T" -o files/refused.pdf --names "李雷"
run sheet-font-not-a-font render sheet "$T" -o files/refused.pdf --font sheet-templates/summertime.json
run sheet-font-missing render sheet "$T" -o files/refused.pdf --font missing.ttf
run sheet-missing-folder render sheet "$T" -o missing/sheet.pdf
run sheet-uppercase-ext render sheet "$T" -o files/sheet-upper.PDF

echo "same-outputs: render cards" >&2
for d in sheet-templates/petit-ete.json tests/templates/deck-many-problems.json "${TOLERANT_DECKS[@]}" missing.json; do
    s=$(slug "$d")
    run "cards-$s-svg" render cards "$d" -o "files/cards-$s.svg"
done
for d in "${DECKS[@]}"; do
    s=$(slug "$d")
    for ext in pdf svg; do
        run "cards-$s-$ext" render cards "$d" -o "files/cards-$s.$ext"
        for paper in letter a5; do
            run "cards-$s-$paper-$ext" render cards "$d" -o "files/cards-$s-$paper.$ext" --paper "$paper"
        done
        run "cards-$s-bleed-$ext" render cards "$d" -o "files/cards-$s-bleed.$ext" --bleed 3
        run "cards-$s-font-$ext" render cards "$d" -o "files/cards-$s-font.$ext" --font "$FONT"
    done
    run "cards-$s-stdout" render cards "$d" -o -
done
run cards-bleed-5 render cards sheet-templates/summertime.json -o files/cards-bleed-5.pdf --bleed 5 --paper letter
run cards-bleed-6 render cards sheet-templates/summertime.json -o files/refused.pdf --bleed 6
run cards-bleed-fraction render cards sheet-templates/summertime.json -o files/cards-bleed-fraction.svg --bleed 2.5
run cards-bleed-negative render cards sheet-templates/summertime.json -o files/refused.pdf --bleed=-1

echo "same-outputs: simulate" >&2
for fmt in text json; do
    S=(simulate soleils --games 40 --seed 7 "${J[@]}" --format "$fmt")
    M=(simulate summertime --games 40 --seed 7 "${J[@]}" --format "$fmt")
    run "sim-soleils-$fmt" "${S[@]}"
    run "sim-soleils-seed-default-$fmt" simulate soleils --games 40 "${J[@]}" --format "$fmt"
    run "sim-soleils-2p-greedy-$fmt" "${S[@]}" --players 2 --bot greedy
    run "sim-soleils-12p-$fmt" "${S[@]}" --players 12
    run "sim-soleils-solo-$fmt" "${S[@]}" --players 1 --option solo=true
    run "sim-soleils-solo-missing-$fmt" "${S[@]}" --players 1
    run "sim-soleils-mixed-$fmt" simulate soleils --games 12 --seed 3 "${J[@]}" --format "$fmt" \
        --bot random,greedy,search:4
    run "sim-soleils-search-$fmt" simulate soleils --games 6 --seed 3 "${J[@]}" --format "$fmt" --players 2 --bot search:4
    run "sim-soleils-options-$fmt" "${S[@]}" --option sun_bonus=exact \
        --option skip_placement=only_when_blocked --option sailboats=different
    for t in "${SHEETS[@]}"; do
        run "sim-soleils-$(slug "$t")-$fmt" "${S[@]}" --template "$t"
    done
    run "sim-summertime-$fmt" "${M[@]}"
    run "sim-summertime-greedy-$fmt" "${M[@]}" --bot greedy
    run "sim-summertime-mixed-$fmt" simulate summertime --games 12 --seed 3 "${J[@]}" --format "$fmt" \
        --bot random,search:4
    for d in "${DECKS[@]}"; do
        run "sim-summertime-$(slug "$d")-$fmt" "${M[@]}" --deck "$d"
    done
    run "sim-summertime-3p-$fmt" "${M[@]}" --players 3
    run "sim-summertime-option-$fmt" "${M[@]}" --option sun_bonus=exact
    run "sim-soleils-13p-$fmt" "${S[@]}" --players 13
    run "sim-soleils-bad-bot-$fmt" "${S[@]}" --bot clever
    run "sim-soleils-bad-option-$fmt" "${S[@]}" --option nonsense=1
    run "sim-soleils-deck-$fmt" "${S[@]}" --deck sheet-templates/summertime.json
    run "sim-soleils-wrong-template-$fmt" "${S[@]}" --template sheet-templates/summertime.json
done
run sim-soleils-jobs1 simulate soleils --games 40 --seed 7 --jobs 1
run sim-soleils-out simulate soleils --games 5 --seed 9 "${J[@]}" --players 3 --out files/sims-soleils
run sim-summertime-out simulate summertime --games 5 --seed 9 "${J[@]}" --bot greedy,random --out files/sims-summertime
run sim-soleils-out-json simulate soleils --games 3 --seed 9 "${J[@]}" --format json --out files/sims-soleils-json \
    --option sun_bonus=exact --template sheet-templates/petit-ete.json
for f in files/sims-soleils/*.jsonl files/sims-summertime/*.jsonl; do
    [ -e "$f" ] && run "replay-$(slug "$f")" replay "$f"
done

echo "same-outputs: compare" >&2
for fmt in text json; do
    CS=(compare soleils --games 40 --seed 5 "${J[@]}" --format "$fmt")
    CM=(compare summertime --games 40 --seed 5 "${J[@]}" --format "$fmt")
    run "compare-soleils-default-$fmt" "${CS[@]}"
    run "compare-soleils-sun-bonus-$fmt" "${CS[@]}" --b-option sun_bonus=exact
    run "compare-soleils-options-$fmt" "${CS[@]}" --a-option skip_placement=only_when_blocked \
        --b-option sailboats=different --b-option sun_bonus=exact --players 3
    run "compare-soleils-templates-$fmt" "${CS[@]}" --a-template sheet-templates/petit-ete.json \
        --b-template tests/templates/valid/thresholds-every-10.json --players 2
    run "compare-soleils-greedy-$fmt" "${CS[@]}" --bot greedy --b-option sun_bonus=exact --players 5
    run "compare-soleils-search-$fmt" compare soleils --games 6 --seed 5 "${J[@]}" --format "$fmt" \
        --bot random,search:4 --b-option sun_bonus=exact --players 2
    run "compare-summertime-deck-$fmt" "${CM[@]}" --b-deck tests/templates/valid/deck-mild-penalty.json
    run "compare-summertime-decks-$fmt" "${CM[@]}" --a-deck tests/rescore/deck-ocean-1-worth-7.json \
        --b-deck tests/rescore/deck-ocean-1-renamed.json --bot greedy
    run "compare-summertime-tolerant-deck-$fmt" "${CM[@]}" --b-deck tests/templates/tolerant/deck-unknown-fields.json
    run "compare-summertime-template-$fmt" "${CM[@]}" --b-template sheet-templates/petit-ete.json
    run "compare-soleils-deck-$fmt" "${CS[@]}" --b-deck sheet-templates/summertime.json
    run "compare-soleils-bad-option-$fmt" "${CS[@]}" --b-option sun_bonus=maybe
    run "compare-soleils-bad-template-$fmt" "${CS[@]}" --b-template tests/templates/many-problems.json
    for ext in pdf svg; do
        run "compare-soleils-$fmt-$ext" "${CS[@]}" --b-option sun_bonus=exact -o "files/compare-soleils-$fmt.$ext"
        run "compare-summertime-$fmt-$ext" "${CM[@]}" --b-deck tests/templates/valid/deck-mild-penalty.json \
            -o "files/compare-summertime-$fmt.$ext"
    done
done
for paper in letter a5; do
    for ext in pdf svg; do
        run "compare-soleils-$paper-$ext" compare soleils --games 40 --seed 5 "${J[@]}" --b-option sun_bonus=exact \
            -o "files/compare-soleils-$paper.$ext" --paper "$paper"
    done
done
run compare-soleils-templates-pdf compare soleils --games 40 --seed 5 "${J[@]}" --players 2 \
    --a-template sheet-templates/petit-ete.json -o files/compare-soleils-templates.pdf
run compare-soleils-same-pdf compare soleils --games 40 --seed 5 "${J[@]}" -o files/compare-soleils-same.svg
run compare-missing-folder compare soleils --games 40 "${J[@]}" --b-option sun_bonus=exact -o missing/c.pdf
run compare-bad-ext compare soleils --games 40 "${J[@]}" --b-option sun_bonus=exact -o files/c.png

echo "same-outputs: ladder" >&2
for fmt in text json; do
    LS=(ladder soleils --games 40 --seed 5 "${J[@]}" --format "$fmt")
    LM=(ladder summertime --games 40 --seed 5 "${J[@]}" --format "$fmt")
    run "ladder-soleils-$fmt" "${LS[@]}" --bots random,greedy
    run "ladder-soleils-search-$fmt" ladder soleils --games 8 --seed 5 "${J[@]}" --format "$fmt" \
        --bots random,greedy,search:4 --players 3
    run "ladder-soleils-options-$fmt" "${LS[@]}" --bots greedy,random --players 2 \
        --template sheet-templates/petit-ete.json --option sun_bonus=exact
    run "ladder-summertime-$fmt" "${LM[@]}" --bots random,greedy,search:4
    run "ladder-summertime-deck-$fmt" "${LM[@]}" --bots random,greedy --deck tests/templates/valid/deck-mild-penalty.json
    run "ladder-one-bot-$fmt" "${LS[@]}" --bots random
    run "ladder-same-bot-$fmt" "${LS[@]}" --bots random,random
    run "ladder-bad-bot-$fmt" "${LS[@]}" --bots random,clever
    run "ladder-summertime-3p-$fmt" "${LM[@]}" --bots random,greedy --players 3
    for ext in pdf svg; do
        run "ladder-soleils-$fmt-$ext" "${LS[@]}" --bots random,greedy -o "files/ladder-soleils-$fmt.$ext"
        run "ladder-summertime-$fmt-$ext" "${LM[@]}" --bots random,greedy,search:4 -o "files/ladder-summertime-$fmt.$ext"
    done
done
for paper in letter a5; do
    for ext in pdf svg; do
        run "ladder-soleils-$paper-$ext" ladder soleils --games 40 --seed 5 "${J[@]}" --bots random,greedy \
            -o "files/ladder-soleils-$paper.$ext" --paper "$paper"
    done
done
run ladder-missing-folder ladder soleils --games 40 "${J[@]}" --bots random,greedy -o missing/l.pdf
run ladder-bad-ext ladder soleils --games 40 "${J[@]}" --bots random,greedy -o files/l.html

echo "same-outputs: schema, completions, man" >&2
for f in soleils-log soleils-template summertime-log summertime-deck simulate-report compare-report \
    rescore-line audit-line replay-report status-report template-report ladder-report analyse-report \
    hint-report; do
    run "schema-$f" schema "$f"
done
for sh in bash zsh fish powershell elvish; do
    run "completions-$sh" completions "$sh"
done
run man man
mkdir -p files/man
run man-dir man --dir files/man
run man-dir-missing man --dir missing/man

echo "same-outputs: recording live" >&2
# The fixed stamps: 2026-07-14T15:00:00+02:00, then one second later each time.
STAMPS=0
next_stamp() {
    STAMP=$(printf '2026-07-14T%02d:%02d:%02d+02:00' $((15 + STAMPS / 3600)) $((STAMPS / 60 % 60)) $((STAMPS % 60)))
    STAMPS=$((STAMPS + 1))
}

# at_fix LOG: give the last line of LOG, if a recording verb just wrote it,
# the next fixed "at", keeping the shape of the one it had.
at_fix() {
    local log=$1 at
    [ -s "$log" ] || return 0
    at=$(tail -n 1 "$log" | sed -n -E 's/^\{"seq":[0-9]+,"at":"([^"]*)".*/\1/p')
    # Already fixed, or a line without "at": nothing was appended.
    [ -n "$at" ] || return 0
    [[ $at =~ ^2026-07-14T[0-9]{2}:[0-9]{2}:[0-9]{2}\+02:00$ ]] && return 0
    echo "$at" | sed -E 's/[0-9]+/N/g' >> "$log.at-shapes"
    next_stamp
    sed -i -E '$ s/^(\{"seq":[0-9]+,"at":")[^"]*"/\1'"$STAMP"'"/' "$log"
}

# rec NAME LOG ARGS...: a recording command on LOG, then fix its stamp.
rec() {
    local name=$1 log=$2
    shift 2
    run "$name" "$@"
    at_fix "$log"
}

# drive NAME LOG MODE MAX: play LOG to its end (or MAX entries): at each step
# take one of the legal next entries `status --all --format json` lists, chosen
# by the step number, and record it: MODE verbs pastes the command it gives
# (roll, place, crab, sun, bonus, reveal, buy, play, ...), MODE append passes
# the entry to `sunfold append` with a fixed "at".
drive() {
    local name=$1 log=$2 mode=$3 max=$4 step=1 n i
    local status=$W/status.json
    local -a cmds words
    while [ "$step" -le "$max" ]; do
        "$SUNFOLD" status "$log" --all --format json > "$status" 2>/dev/null
        if [ "$mode" = verbs ]; then
            mapfile -t cmds < <(jq -r '.commands[]?.commands[]?' "$status")
            n=${#cmds[@]}
        else
            n=$(jq '.legal_events | length' "$status" 2>/dev/null || echo 0)
        fi
        [ "$n" -gt 0 ] || break
        i=$(((step * 7919 + 13) % n))
        local sname
        sname=$name-$(printf '%03d' "$step")
        if [ "$mode" = verbs ]; then
            # The commands are written for a shell (names quoted: 'Chloé').
            case ${cmds[$i]} in
            *'`'* | *'$('*) echo "same-outputs: refusing to run ${cmds[$i]}" >&2; exit 3 ;;
            esac
            # A log without a dice seed asks for the dice rolled at the table.
            local cmd=${cmds[$i]//--dice A,B,C/--dice $((step % 6 + 1)),$((step * 5 % 6 + 1)),$((step * 2 / 3 % 6 + 1))}
            eval "words=($cmd)"
            rec "$sname" "$log" "${words[@]:1}"
        else
            local entry
            next_stamp
            entry=$(jq -c --argjson i "$i" --arg at "$STAMP" '.legal_events[$i] + {at: $at}' "$status")
            rec "$sname" "$log" append "$log" "$entry"
        fi
        if [ $((step % 15)) -eq 0 ]; then
            run "$sname-status" status "$log"
            run "$sname-hint" hint "$log" --bot search:4 --seed 2
        fi
        step=$((step + 1))
    done
    rm -f "$status"
}

# finish NAME LOG: every view of a recorded log.
finish() {
    local name=$1 log=$2
    run "$name-final-status" status "$log"
    run "$name-final-status-json" status "$log" --all --format json
    run "$name-final-replay" replay "$log"
    run "$name-final-replay-json" replay "$log" --format json
    run "$name-final-audit" audit "$log" "${J[@]}" --strict-claims
    run "$name-final-analyse" analyse "$log" --bot search:4 --seed 1 "${J[@]}"
    run "$name-final-render-pdf" render replay "$log" -o "files/$name.pdf"
    run "$name-final-render-html" render replay "$log" -o "files/$name.html"
}

R=files/rec
# 62 Soleils, two players, every decision through the verbs.
L=$R/soleils-verbs.jsonl
rec rec-sv-new "$L" new soleils "$L" --players Ann,Chloé --dice-seed 62
rec rec-sv-new-again "$L" new soleils "$L" --players Ann,Bob --dice-seed 62
rec rec-sv-place-early "$L" place "$L" Ann K1a 1
rec rec-sv-roll-dice-bad "$L" roll "$L" --dice 1,2,7
drive rec-sv "$L" verbs 40
rec rec-sv-place-bad-value "$L" place "$L" Ann K1a 9
rec rec-sv-place-bad-box "$L" place "$L" Ann Z9 1
rec rec-sv-place-bad-player "$L" place "$L" Zed K1a 1
rec rec-sv-sun-bad "$L" sun "$L" Ann 7
rec rec-sv-crab-bad "$L" crab "$L" Ann K1a
rec rec-sv-crab-decline-bad "$L" crab "$L" Ann --decline
rec rec-sv-bonus-bad "$L" bonus "$L" Ann --decline
rec rec-sv-roll-open "$L" roll "$L"
rec rec-sv-buy-wrong-game "$L" buy "$L" Ann 0
rec rec-sv-undo "$L" undo "$L"
rec rec-sv-undo-again "$L" undo "$L"
rec rec-sv-append-not-json "$L" append "$L" 'not json'
rec rec-sv-append-array "$L" append "$L" '[1,2]'
rec rec-sv-append-unknown "$L" append "$L" '{"type":"teleported","player":"Ann"}'
rec rec-sv-append-seq "$L" append "$L" '{"seq":3,"type":"rolled","dice":[1,2,3]}'
rec rec-sv-claim-bad "$L" claim "$L" Ann=x
rec rec-sv-claim-unknown "$L" claim "$L" Zed=4
echo '{"Ann": 54, "Chloé": 61}' > "$R/claims.json"
rec rec-sv-claim-from "$L" claim "$L" --from "$R/claims.json"
rec rec-sv-claim-from-missing "$L" claim "$L" --from missing.json
run rec-sv-mid-status status "$L"
drive rec-sv2 "$L" verbs 400
rec rec-sv-roll-over "$L" roll "$L"
rec rec-sv-claim "$L" claim "$L" Ann=54 Chloé=61
rec rec-sv-undo-claim "$L" undo "$L"
finish rec-sv "$L"

# 62 Soleils, three players, real dice: every entry through append.
L=$R/soleils-append.jsonl
rec rec-sa-new "$L" new soleils "$L" --players Ann,Bob,Cyd --dice-seed 5 \
    --option sun_bonus=exact --option skip_placement=only_when_blocked --option sailboats=different
drive rec-sa "$L" append 600
finish rec-sa "$L"

# 62 Soleils solo on the small sheet, with real dice from --dice.
L=$R/soleils-solo.jsonl
rec rec-so-new-refused "$L" new soleils "$L" --players Fanny --dice-seed 1
rec rec-so-new "$L" new soleils "$L" --players Fanny --option solo=true \
    --template sheet-templates/petit-ete.json --dice-seed 1
for r in 1 2 3 4; do
    rec "rec-so-roll-$r" "$L" roll "$L" --dice 6,6,6
    rec "rec-so-sun-$r" "$L" sun "$L" Fanny 6
done
drive rec-so "$L" verbs 400
finish rec-so "$L"
L=$R/overwritten.jsonl
cp "$R/soleils-solo.jsonl" "$L"
rec rec-so-new-force "$L" new soleils "$L" --players Fanny,Théo --dice-seed 1 --force
run rec-so-new-force-status status "$L"
rec rec-new-bad-template "$R/x.jsonl" new soleils "$R/x.jsonl" --players A,B --dice-seed 1 \
    --template tests/templates/many-problems.json
rec rec-new-dup-players "$R/x.jsonl" new soleils "$R/x.jsonl" --players A,A --dice-seed 1
rec rec-new-13-players "$R/x.jsonl" new soleils "$R/x.jsonl" --dice-seed 1 --players A,B,C,D,E,F,G,H,I,J,K,L,M
rec rec-new-bad-option "$R/x.jsonl" new soleils "$R/x.jsonl" --players A,B --dice-seed 1 --option sun_bonus=maybe
rec rec-new-missing-folder missing/x.jsonl new soleils missing/x.jsonl --players A,B --dice-seed 1
rec rec-roll-missing "$R/none.jsonl" roll "$R/none.jsonl"

# Summertime, dealt from a seed, every decision through the verbs.
L=$R/summertime-verbs.jsonl
rec rec-mv-new "$L" new summertime "$L" --players Ann,Bob --first Bob --seed 42
rec rec-mv-buy-early "$L" buy "$L" Bob 0
drive rec-mv "$L" verbs 20
rec rec-mv-buy-bad "$L" buy "$L" Ann nothing-1
rec rec-mv-play-bad-cell "$L" play "$L" Ann beach-1 9,9
rec rec-mv-play-bad-cell-syntax "$L" play "$L" Ann beach-1 nine
rec rec-mv-flip-bad "$L" flip "$L" Zed
rec rec-mv-pass-other "$L" pass "$L" Bob
rec rec-mv-discard-early "$L" discard "$L"
rec rec-mv-end-turn-bad "$L" end-turn "$L" Ann
rec rec-mv-place-wrong-game "$L" place "$L" Ann K1a 1
rec rec-mv-undo "$L" undo "$L"
drive rec-mv2 "$L" verbs 600
rec rec-mv-claim "$L" claim "$L" Ann=10 Bob=20
finish rec-mv "$L"

# Summertime, dealt, every entry through append.
L=$R/summertime-append.jsonl
rec rec-ma-new "$L" new summertime "$L" --players Kim,Lou --seed 7 --deck tests/templates/valid/deck-mild-penalty.json
drive rec-ma "$L" append 600
finish rec-ma "$L"

# Summertime at a real table: the cards typed in as they are turned up.
L=$R/summertime-physical.jsonl
rec rec-mp-new "$L" new summertime "$L" --players Ann,Bob --physical --closing 0,1,0
rec rec-mp-reveal "$L" reveal "$L" 0 ocean-1 --behind coconut,coconut,shell
rec rec-mp-reveal-bad "$L" reveal "$L" 1 ocean-1 --behind coconut,coconut,shell
rec rec-mp-reveal-no-behind "$L" reveal "$L" 1 beach-1
drive rec-mp "$L" verbs 600
finish rec-mp "$L"
# Summertime dealt from an order file (the deal of a golden replay).
L=$R/summertime-order.jsonl
jq -c 'select(.seq == 0) | .order | {hands, stacks, closing_up}' replays/summertime-rulebook-examples.jsonl \
    > "$R/order.json"
rec rec-mo-new "$L" new summertime "$L" --players Ann,Ben --deck-order "$R/order.json"
drive rec-mo "$L" verbs 600
finish rec-mo "$L"
rec rec-new-summertime-3p "$R/y.jsonl" new summertime "$R/y.jsonl" --players A,B,C --seed 1
rec rec-new-summertime-first "$R/y.jsonl" new summertime "$R/y.jsonl" --players A,B --first C --seed 1
rec rec-new-summertime-order-missing "$R/y.jsonl" new summertime "$R/y.jsonl" --players A,B --deck-order missing.json
rec rec-new-summertime-bad-deck "$R/y.jsonl" new summertime "$R/y.jsonl" --players A,B --seed 1 \
    --deck tests/templates/deck-many-problems.json

# A torn last line: refused, then repaired (the torn bytes kept in FILE.torn).
L=$R/torn.jsonl
cp tests/bad/torn-last-line.jsonl "$L"
run rec-torn-status status "$L"
rec rec-torn-roll "$L" roll "$L"
rec rec-torn-repair "$L" repair "$L"
rec rec-torn-repair-again "$L" repair "$L"
run rec-torn-replay replay "$L"
run rec-repair-bad repair tests/bad/not-json.jsonl
run rec-repair-missing repair missing.jsonl
# A log written by hand (not chained) keeps being appended to without hashes.
L=$R/unchained.jsonl
head -n 20 replays/soleils-4p-sun-limit.jsonl > "$L"
drive rec-un "$L" verbs 12
finish rec-un "$L"
# A chained log changed after the fact names the broken line.
L=$R/tampered.jsonl
head -n 10 "$R/soleils-append.jsonl" | sed -E '4 s/"at":"2026-/"at":"2025-/' > "$L"
run rec-tampered-replay replay "$L"
run rec-tampered-audit audit "$L" "${J[@]}" --format json
rec rec-tampered-undo "$L" undo "$L"

# Everything written under files/, with any lock file left beside a log.
cp -r files "$OUT/files"

nfiles=$(find "$OUT" -type f | wc -l)
echo "same-outputs: $COUNT commands, $nfiles files in $OUT ($(du -sh "$OUT" | cut -f1))" >&2
echo "same-outputs: exit codes: $(cat "$C"/*.exit | sort | uniq -c | awk '{printf "%s x%s  ", $2, $1}')" >&2
if grep -rlF -e "$W" -e "$OUT" "$OUT" > "$W/leaks" 2>/dev/null; then
    echo "same-outputs: warning: these outputs name the scratch folder or OUTDIR:" >&2
    cat "$W/leaks" >&2
fi
