// The JSON the servers answer the pages, as JSDoc types for their scripts:
// made from the code's JSON Schemas (docs/schema/) by
// tests/it/docs/page_types.rs, which fails when this file is stale.
// Nothing here runs, and it is never sent to a browser.

/**
 * Everything one page shows (`sunfold schema table-view`).
 * @typedef {Object} TableView
 * @property {(Array<BotSeat> | null)} [bots] The seats bots play, each with its bot, and why it could not decide when it could not.
 * @property {Array<Choice>} choices
 * @property {boolean} dice_form The referee may type the three dice rolled at the table.
 * @property {string} game
 * @property {(string | null)} [holding] What the player holds, in words, kept in view on a phone: their hand and tiles (Summertime).
 * @property {(string | null)} [name]
 * @property {(Outcome | null)} [outcome] Once the game is over: how it ended, the winners and every player's score and rank, for everyone's page.
 * @property {boolean} over
 * @property {Array<Panel>} panels
 * @property {Array<Line>} players
 * @property {string} progress Where the game stands: its turn, or how it ended.
 * @property {(string | null)} [recording_as] The player the referee records for, on their page (`?as=NAME`): a seat without a phone.
 * @property {Object<string, string>} refused For keys the page shows but cannot choose now (a box no die fits): why, in the engine's words.
 * @property {string} role `player` or `referee`.
 * @property {(InRoom | null)} [room] The event, its round and the table, when a room serves the table.
 * @property {number} seq The seq of the log's last entry: how many entries follow the start line.
 * @property {(string | null)} [waiting] Why nothing is offered, when nothing is.
 */

/**
 * A seat played by a bot, as a page shows it.
 * @typedef {Object} BotSeat
 * @property {string} bot The bot, as `--bot` spells it: `greedy`, `search:64`.
 * @property {string} name The player's name in the log.
 * @property {(string | null)} [problem] Why the bot could not decide, when it could not: the referee may record for the seat.
 */

/**
 * One decision the page may post.
 * @typedef {Object} Choice
 * @property {unknown} event The entry to post to `/api/events`.
 * @property {Kind} group What kind of decision, by which the page groups its buttons.
 * @property {(string | null)} [hand] The card in hand a play is made with (`Ocean 2 (O2)`): on a phone, the player taps it, then a highlighted cell of the grid.
 * @property {(string | null)} [key] The SVG group it belongs to (`box:K1a`), for a choice made by tapping the sheet.
 * @property {string} label The button's text.
 */

/**
 * Where a table stands in an event, when a room serves it: the event, the event's round and the table, for every page's header.
 * @typedef {Object} InRoom
 * @property {string} event The event log's name, without its folder and extension.
 * @property {number} round The event's round, from 1 (not the game's turns).
 * @property {number} table The table's number in that round, from 1.
 */

/**
 * What kind of decision an offer is. A page groups its buttons by kind, and gives each group its title; on the wire it is the lowercase name (`place`, `sun`, …).
 * @typedef {("place" | "bonus" | "sun" | "crab" | "buy" | "play" | "turn" | "reveal" | "discard" | "roll" | "undo")} Kind
 */

/**
 * A player's line in the progress list.
 * @typedef {Object} Line
 * @property {string} name
 * @property {number} score
 * @property {(string | null)} [waiting] What the table waits for from them, if anything.
 */

/**
 * Where a match stands at the end of its log.
 * @typedef {Object} Outcome
 * @property {(string | null)} [ended] How the game ended, or that claims called it; `null` if the log stops before the end.
 * @property {Array<Standing>} players Every player, in seating order.
 * @property {Array<string>} winners The players with rank 1 (more than one on a tie).
 */

/**
 * One drawing: a player's sheet, or the Summertime table.
 * @typedef {Object} Panel
 * @property {string} hash The panel's name for its drawings, the same while what it shows is the same, and fetched by: 16 hex digits of a hash of its inputs, keyed with a secret of the server's run.
 * @property {string} name
 * @property {(string | null)} [phone] The same drawing laid out for a phone's narrow screen, where every word stays legible at the screen's width; left out with `svg`.
 * @property {(string | null)} [svg] The drawing; left out when the page already holds it (its hash was in `?have=`), so that an update sends only the panels that changed.
 */

/**
 * @typedef {Object} Standing
 * @property {string} player
 * @property {number} rank 1 for the best; tied players share a rank.
 * @property {number} score
 */

/**
 * A review as the page shows it: the player's costliest decisions, in `sunfold analyse`'s figures and words, and the command that gives them (`sunfold schema table-review`).
 * @typedef {Object} TableReview
 * @property {string} bot The judging bot, such as `search:16`.
 * @property {string} command The command that gives the same figures: `sunfold analyse FILE --player NAME --seed S --bot search:N`.
 * @property {Array<Reviewed>} costliest At most three costly decisions, costliest first.
 * @property {number} costly How many were costly (the loss's 95% interval leaves out 0).
 * @property {number} decisions The player's decisions judged.
 * @property {string} file The log, by its name (never where the server keeps it).
 * @property {string} game `soleils` or `summertime`.
 * @property {string} heading `analyse`'s first line: what was judged, by what, and what a point lost means.
 * @property {string} player
 * @property {number} points_lost The points lost over all of them.
 * @property {number} rollouts
 * @property {number} seed The seed of the rollouts, drawn from the log's hash: the same log gets the same review.
 * @property {string} summary `analyse`'s line for the player: "Ann: 20 decisions, 12.3 points lost, 2 costly".
 * @property {string} value What a point lost is: `score` (the player's own final score) or `lead` (over the other player, in Summertime).
 */

/**
 * One decision judged.
 * @typedef {Object} DecisionReport
 * @property {Judged} best The bot's best decision: the same as `taken` when nothing is lost.
 * @property {number} choices How many legal choices the player had.
 * @property {boolean} costly Points were lost and the interval leaves out 0.
 * @property {boolean} every_choice Every legal choice was played out on the same futures, and none searched for: the verdict rests on the rollouts' noise alone.
 * @property {number} held In how many of the independent searches the pick beat the decision taken beyond the noise of the rollouts: how stable the verdict is.
 * @property {number} line
 * @property {string} player
 * @property {(Estimate | null)} [points_lost] The best decision's value minus the taken one's, on the same futures, with its 95% interval; `null` when nothing measured did better, which is not a loss known to be 0: when the choices were searched, a better move that no search found is beyond what the measure can know.
 * @property {number} searches The independent searches of this decision: 0 when every choice was measured, as for the only legal choice.
 * @property {number} seq
 * @property {string} state_before The command that shows the state before the decision.
 * @property {Judged} taken
 * @property {string} verdict The verdict in words: "the only legal choice", "no better decision found in 3 searches at search:192", "beaten in 2 of 3 searches", and when every choice was measured "the best of all 4 choices" or "beaten by the best of all 4 choices".
 */

/**
 * A mean and its 95% confidence interval.
 * @typedef {Object} Estimate
 * @property {Array<number>} ci95
 * @property {number} estimate
 */

/**
 * A decision and what it is expected to lead to.
 * @typedef {Object} Judged
 * @property {Estimate} expected_score The player's expected final score after it, with its 95% interval.
 * @property {Estimate} expected_value The expected value (the score, or in Summertime the lead).
 * @property {number} rollouts
 * @property {string} said In words: "Ann placed 5 in K1d".
 */

/**
 * One of the costliest decisions.
 * @typedef {Object} Reviewed
 * @property {DecisionReport} decision The decision as `analyse --format json` gives it.
 * @property {Array<string>} lines `analyse`'s two lines for it: the decision taken, then the better one and the points it would have saved.
 */

/**
 * The board, as `GET /api/room` sends it (`sunfold schema room-board`).
 * @typedef {Object} RoomBoard
 * @property {Array<string>} bye The names of the players who sit out the round with a bye.
 * @property {boolean} can_seat Whether the next round can be seated now: every table has its result, and rounds remain.
 * @property {boolean} closed
 * @property {string} event The event log's name, without its folder and extension.
 * @property {string} game
 * @property {Array<string>} out The names of the players who do not play the round (a final).
 * @property {number} round The round seated last; 0 before the first.
 * @property {number} rounds The rounds the event was created with.
 * @property {Standings} standings
 * @property {Array<BoardTable>} tables
 */

/**
 * @typedef {Object} BoardSeat
 * @property {string} id
 * @property {string} name
 * @property {(number | null)} [rank]
 * @property {(number | null)} [score] Once the result is attached.
 * @property {number} seat From 1; seat 1 starts.
 * @property {string} token The token of the seat's join link.
 */

/**
 * One table of the round.
 * @typedef {Object} BoardTable
 * @property {boolean} done Whether its result is attached.
 * @property {string} path Its path in the room, `/r/ROUND/t/TABLE`.
 * @property {Array<string>} pending Whose decision is pending, and what it is.
 * @property {Array<BoardSeat>} players
 * @property {(string | null)} [problem] Why the table's log cannot be read, or its result not attached.
 * @property {string} progress The round or turn, or how the game ended.
 * @property {string} referee The token of the table's referee link.
 * @property {number} table
 */

/**
 * One player's standing as the JSON gives it: each number of points twice, as the nearest float for plotting and exactly, as a fraction in lowest terms (`"40/3"`, `"6"`), to compare and to print.
 * @typedef {Object} Row
 * @property {number} buchholz The sum of the points of every opponent they met, once per meeting, as the nearest float.
 * @property {number} buchholz_cut1 Their Buchholz without the meeting of fewest points, as the nearest float.
 * @property {string} buchholz_cut1_exact The same exactly.
 * @property {string} buchholz_exact The same exactly.
 * @property {number} byes
 * @property {number} draw The seeded draw, lowest first: the last tie-break.
 * @property {boolean} dropped Whether they dropped out.
 * @property {number} head_to_head The points they won at the tables they shared with the players tied with them when the head-to-head tie-break applied; 0 when it did not. As the nearest float.
 * @property {string} head_to_head_exact The same exactly.
 * @property {string} id
 * @property {number} margin The sum over their tables of their score minus the best other score.
 * @property {string} name
 * @property {number} played Tables with a result.
 * @property {number} points The points from the ranks at their tables and their byes, as the nearest float.
 * @property {string} points_exact The points exactly: `40/3`.
 * @property {number} rank 1 for the best; players equal on the points and every tie-break share a rank.
 * @property {number} score The sum of their scores.
 */

/**
 * The standings of an event, as `sunfold event standings --format json` prints them.
 * @typedef {Object} Standings
 * @property {string} game `soleils` or `summertime`.
 * @property {number} rounds_complete The rounds whose every table has a result.
 * @property {Array<Row>} rows Every player, best first; players who share a rank by id.
 * @property {Array<TieBreak>} tie_breaks The tie-breaks after the points, in the order they apply.
 */

/**
 * A tie-break, in the order the event declares them after the points.
 * @typedef {("score" | "buchholz" | "buchholz_cut1" | "margin" | "head_to_head" | "draw")} TieBreak
 */

/**
 * What the template stands as after an edit: the answer of every edit (`sunfold schema studio-standing`).
 * @typedef {Object} StudioStanding
 * @property {boolean} changed Whether this request changed the template: false for a patch that changes nothing (it is not logged and adds no undo step) and for the checks alone.
 * @property {Array<Problem>} problems Every problem, as `template check` writes it.
 * @property {number} redo
 * @property {number} undo How many edits can be undone, and redone.
 * @property {boolean} valid Whether it passes `template check`: only then is it in the file.
 * @property {string} version The template's version as it stands: what an edit made against it names in `If-Match` (also the reply's `ETag`, quoted there).
 * @property {Array<Problem>} warnings What is possible but improbable, when valid.
 */

/**
 * One problem of a template or deck.
 * @typedef {Object} Problem
 * @property {string} message Why, as `expected X, but found Y`.
 * @property {string} path Where, such as `zones[2].flag`; `$` for the whole file.
 */

/**
 * The quick simulation as it stands: what `GET /api/figures` answers (`sunfold schema studio-figures`).
 * @typedef {Object} StudioFigures
 * @property {boolean} changed_since_opened Whether the saved file differs from the file as opened.
 * @property {boolean} edit_compared Whether the last edit changed the saved file; false at opening, and after an edit that left the file invalid.
 * @property {Array<Figure>} figures
 * @property {(number | null)} [first_figures_ms] How long this run took to its first figures, in milliseconds: the versions checked, the first games played and their figures made.
 * @property {Options} options The rule options a sheet's games are played under, every version alike: chosen in a game's start, never in its sheet.
 * @property {number} played Paired games played so far in this run.
 * @property {number} players Seats at each table.
 * @property {number} run Counts the runs started; a new edit starts the next.
 * @property {boolean} running Whether the run is still playing.
 * @property {Settings} settings
 * @property {(string | null)} [waiting] Why nothing runs: the file has never been valid since it was opened.
 */

/**
 * A difference B − A over paired games, as a person reads it.
 * @typedef {Object} Change
 * @property {Estimate} difference
 * @property {boolean} significant Significant after Holm's correction across the run's figures.
 * @property {string} text "-2.10 [-2.47, -1.72]", "+100.0 pp in every game", or "the same in every game".
 */

/**
 * One figure of the panel.
 * @typedef {Object} Figure
 * @property {string} id The report's stable key: `mean_score`, `rounds`, `zone_flag.cabins`.
 * @property {string} label
 * @property {(Estimate | null)} [now] Its value under the saved file.
 * @property {(Estimate | null)} [opened] Its value under the file as opened, when that differs from now.
 * @property {string} section The heading it belongs under.
 * @property {(Change | null)} [since_opened] Now against the file as opened.
 * @property {string} text "12.40 [12.10, 12.70]", "12.00 in every game", or "—" where the file has no such figure.
 * @property {(Change | null)} [this_edit] Now against the saved version before the last edit.
 * @property {Unit} unit
 */

/**
 * Every option is required in the start event: a log never depends on a default that a later release might change. `sailboats` and `solo` came with log format 2; the log reader upcasts a format-1 start event to `sailboats: symbol` and `solo: true` exactly when it has one player, which is what format 1 meant.
 * @typedef {Object} Options
 * @property {Sailboats} sailboats
 * @property {SkipPlacement} skip_placement
 * @property {boolean} solo The solo variant: one player, whom a single seashell gives the seashell majority. Neither rulebook has a solo rule, so a game of one must ask for it; a game of 2 to 12 must not.
 * @property {SunBonus} sun_bonus
 */

/**
 * What the two boxes of a sailboat need of each other.
 * @typedef {("symbol" | "different")} Sailboats
 */

/**
 * What the quick simulation plays: its bots and its games.
 * @typedef {Object} Settings
 * @property {string} bot The bot in every seat: `greedy`, `random`, `search` or `search:N`.
 * @property {number} games Paired games per run, 1 to [`MOST_GAMES`].
 */

/**
 * When a player may leave the placement out and only fill the sun.
 * @typedef {("voluntary" | "only_when_blocked")} SkipPlacement
 */

/**
 * When a sun threshold grants its reward.
 * @typedef {("reach_or_pass" | "exact")} SunBonus
 */

/**
 * What a figure counts, which decides how it is shown.
 * @typedef {("points" | "share" | "count")} Unit
 */

/**
 * A refusal as the studio and the table server answer it (most carry only `status` and `error`; an entry the engine refused also carries what is legal instead) (`sunfold schema api-refusal`).
 * @typedef {Object} ApiRefusal
 * @property {unknown} [alternatives] What is legal instead, as events, for an entry refused.
 * @property {unknown} [commands] What is legal instead, as commands, for an entry refused.
 * @property {string} error Why, in the shape "expected X, but found Y".
 * @property {number} status The HTTP status, as in the reply's status line.
 */
