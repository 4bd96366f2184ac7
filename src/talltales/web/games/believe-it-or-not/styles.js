// Believe It or Not!'s styles: one constructed sheet, adopted while the game is on screen (no inline <style> under the CSP).

const CSS = `
.boin { display: grid; gap: .8rem; }
.boin .boin-section-title { font-size: .85em; color: var(--muted); text-transform: uppercase; letter-spacing: .06em; margin: 0 0 .3em; }
.boin-note { margin: .35em 0 0; color: var(--text); }

/* table: fill the screen below the banner */
.room-table .table-body:has(.boin-table) { align-items: stretch; }
.room-table .table-main:has(.boin-table) { display: flex; flex-direction: column; overflow: auto; }
.room-table .table-main:has(.boin-table) > .stage { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
.room-table .table-main:has(.boin-table) > .stage > .game-box { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
.boin-table { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; gap: .6em; }
.boin-table .boin-top { flex: none; }
.boin-table .boin-board { flex: 1 1 auto; min-height: 21em; }
.boin-table .boin-answers { grid-template-columns: repeat(4, minmax(0, 1fr)); }
.boin-side-last:empty { display: none; }
.boin-side .boin-result { font-size: .95em; }
.boin-table .boin-legend { flex: none; }

/* the board */
.boin-board { list-style: none; margin: 0; padding: 0; display: grid; gap: .28em; }
.boin-space {
  position: relative; display: flex; flex-direction: column; align-items: center; justify-content: center;
  border-radius: .45em; border: 2px solid rgba(0,0,0,.35); background: #2f3442; color: #fff;
  min-width: 0; min-height: 0; overflow: hidden; padding: .1em; text-align: center; line-height: 1.05;
  container-type: size;
}
@container (max-height: 2.9em) { /* a short space keeps its number, its sign and its pawns */
  .boin-space:not(.won):not(.shortcut) .boin-small, .boin-pawn-name, .boin-small.boin-extra { display: none; }
  .boin-space.occupied:not(.start) .boin-big { display: none; }
  .boin-space.start.occupied .boin-big { font-size: .62em; }
}
.boin-space.shortcut { flex-flow: row wrap; align-content: center; gap: 0 .3em; }
.boin-space.shortcut .boin-big { font-size: 1.1em; }
.boin-space.shortcut .boin-extra { flex-basis: 100%; }
.boin-space.plain { background: #2f3442; color: #e6e8ee; }
.boin-space.start { background: #1f5fd1; }
.boin-space.won { background: #f5c518; color: #1a1400; }
.boin-space.ahead { background: #1c7a3b; }
.boin-space.back { background: #b3261e; }
.boin-space.trade { background: #6a3fb0; }
.boin-space.speed { background: #0e6670; }
.boin-space.slide { background: #8a4b0f; }
.boin-space.shortcut { background: #141720; border: 2px dashed #ffd166; color: #ffd166; }
.boin-space.landed { box-shadow: 0 0 0 3px var(--bg), 0 0 0 6px var(--accent); }
.boin-num { position: absolute; top: .1em; left: .3em; font-size: .72em; font-weight: 800; opacity: .95; }
.boin-big { font-size: 1.45em; font-weight: 900; }
.boin-space.start .boin-big { font-size: .95em; letter-spacing: .02em; }
.boin-small { font-size: .62em; font-weight: 800; text-transform: uppercase; letter-spacing: .02em; }
.boin-space.won .boin-small { font-size: .6em; font-weight: 900; }
.boin-space.occupied .boin-big { font-size: 1em; }
.boin-space.occupied .boin-small { display: none; }
.boin-pawns { display: flex; flex-wrap: wrap; justify-content: center; gap: .1em; }
.boin-pawns:empty { display: none; }
.boin-pawn { display: inline-flex; flex-direction: column; align-items: center; min-width: 0; }
.boin-pawn .token { font-size: .72em; }
.boin-pawns.n3 .token, .boin-pawns.n4 .token { font-size: .5em; border-width: 1px; }
.boin-pawns.n3, .boin-pawns.n4 { gap: .05em; }
.boin-pawn-name { font-size: .6em; font-weight: 800; max-width: 5.5em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; background: rgba(0,0,0,.55); color: #fff; border-radius: 4px; padding: 0 .25em; }
.boin-pawn.tern .token { box-shadow: 0 0 0 2px #fff, 0 0 0 4px var(--accent); }
.boin-pawn.mine .token { box-shadow: 0 0 0 2px #fff, 0 0 0 4px var(--focus); }
.boin-legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .2em .9em; color: var(--muted); font-size: .8em; }
.boin-legend li { display: inline-flex; align-items: center; gap: .35em; }
.boin-swatch { display: inline-grid; place-items: center; min-width: 1.8em; height: 1.4em; border-radius: .3em; color: #fff; font-weight: 900; font-size: .9em; }
.boin-swatch.ahead { background: #1c7a3b; } .boin-swatch.back { background: #b3261e; }
.boin-swatch.trade { background: #6a3fb0; } .boin-swatch.speed { background: #0e6670; }
.boin-swatch.slide { background: #8a4b0f; } .boin-swatch.shortcut { background: #141720; border: 2px dashed #ffd166; color: #ffd166; }

/* the card in play, the last card, how to play */
.boin-play, .boin-result, .boin-how { background: var(--panel); border: 2px solid var(--line); border-radius: 16px; padding: .55em .9em .6em; }
.boin-play { border-color: var(--accent); }
.boin-play.challenge { border-color: #ff7aa8; box-shadow: inset 0 0 0 2px #ff7aa8; }
.boin-challenge { margin: 0 0 .3em; font-size: 1.1em; font-weight: 800; color: #ffd0e0; }
.boin-play-head { display: flex; flex-wrap: wrap; align-items: center; gap: .3em .6em; margin: 0 0 .3em; font-weight: 800; }
.boin-who { display: inline-flex; align-items: center; gap: .3em; }
.boin-arrow { color: var(--muted); }
.boin-kind-tag { padding: .05em .6em; border-radius: 999px; font-size: .85em; font-weight: 850; color: #fff; }
.k-mc { background: #1f5fd1; } .k-st { background: #1c7a3b; } .k-bl { background: #b3261e; } .k-mv { background: #6a3fb0; }
.boin-stake { color: var(--accent); }
.boin-question { font-size: 1.45em; font-weight: 800; line-height: 1.2; margin: .1em 0 .35em; }
.boin-question.small { font-size: 1.05em; margin: 0 0 .3em; }
.boin-answers { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: 1fr 1fr; gap: .3em .6em; font-size: 1.2em; }
.boin-answers.compact { font-size: .95em; }
.boin-answers li { display: grid; grid-template-columns: auto minmax(0, 1fr); align-items: center; gap: .1em .5em; padding: .2em .5em; border-radius: 10px; background: var(--panel-2); border: 2px solid var(--line); font-weight: 700; line-height: 1.2; }
.boin-answers li > .boin-mark { grid-column: 2; }
.boin-answers li.right { border-color: #7ee2a8; background: #143d27; }
.boin-answers li.chosen:not(.right) { border-color: #ff8a80; background: #3b1614; }
.boin-letter { display: inline-grid; place-items: center; width: 1.6em; height: 1.6em; border-radius: 50%; background: var(--accent); color: var(--accent-ink); font-weight: 900; flex: none; }
.boin-mark { font-size: .8em; font-weight: 850; }
.boin-said { margin: .1em 0 .3em; padding: .35em .7em; font-size: 1.45em; font-weight: 800; line-height: 1.2; border-left: 6px solid var(--accent); background: var(--panel-2); border-radius: 0 12px 12px 0; overflow-wrap: anywhere; }
.boin-said.small { font-size: 1.05em; }
.boin-claim { font-size: 1.6em; font-weight: 900; margin: .1em 0 .2em; color: var(--accent); }
.boin-claim.small { font-size: 1.05em; }
.boin-claim-hint { margin: 0; font-size: .95rem; }
.boin-dispute { font-size: 1.15em; margin: .2em 0; }
.boin-secs { font-weight: 900; color: var(--accent); font-variant-numeric: tabular-nums; }
.boin-bar { height: .5em; border-radius: 999px; background: var(--panel-2); overflow: hidden; }
.boin-bar span { display: block; height: 100%; background: var(--accent); transition: width .25s linear; }
.boin-reveal { font-size: 1.35em; font-weight: 900; margin: .25em 0 0; }
.boin-reveal.good, .boin-result.good .boin-result-title { color: #7ee2a8; }
.boin-reveal.bad, .boin-result.bad .boin-result-title { color: #ff9d94; }
.boin-result-title { font-size: 1.4em; font-weight: 900; margin: 0 0 .2em; }
.boin-result.compact .boin-result-title { font-size: 1.1em; }
.boin-fact { margin: .3em 0 0; padding: .25em .55em; border-radius: 10px; background: var(--panel-2); border-left: 5px solid #7ee2a8; overflow-wrap: anywhere; }
.boin-fact strong { color: #7ee2a8; }
.boin-how ol { margin: 0; padding-left: 1.3em; display: grid; gap: .2em; }
.boin-table .boin-how { font-size: 1.15em; }
.boin-top { display: grid; gap: .5em; }

/* side column: players and piles */
.boin-players ol { list-style: none; margin: 0; padding: 0; display: grid; gap: .3em; }
.boin-players li { display: grid; grid-template-columns: auto minmax(0, 1fr) auto; grid-template-areas: "tok name place" "tok hand badge"; align-items: center; gap: .1em .5em; padding: .35em .55em; border-radius: 12px; background: var(--panel); border: 1px solid var(--line); }
.boin-players li > .token { grid-area: tok; font-size: 1em; }
.boin-players li.tern { background: #3a3315; border-color: var(--accent); box-shadow: inset 5px 0 0 var(--accent); }
.boin-players li.deciding:not(.tern) { border-color: var(--accent); }
.boin-pname { grid-area: name; font-weight: 800; display: inline-flex; flex-wrap: wrap; align-items: center; gap: .3em; overflow-wrap: anywhere; }
.boin-place { grid-area: place; font-weight: 850; text-align: right; }
.boin-hand-size { grid-area: hand; color: var(--muted); font-size: .9em; }
.boin-players li > .badge { grid-area: badge; justify-self: end; }
.boin-piles { display: flex; flex-wrap: wrap; gap: .3em 1em; background: var(--panel); border: 1px solid var(--line); border-radius: 12px; padding: .35em .7em; }
.boin-piles p { margin: 0; }
.boin-pile-n { font-weight: 900; font-size: 1.25em; font-variant-numeric: tabular-nums; }
.boin-waiting-challenge { color: #ffd0e0; font-weight: 800; }
.boin-winner { margin-bottom: 0; }
.boin-table .boin-winner { display: flex; flex-wrap: wrap; align-items: center; justify-content: center; gap: .2em 1.5em; padding: .4em 1em; }
.boin-table .boin-winner .winner-title { font-size: 2.2em; }
.boin-table .boin-winner .winner-detail { margin: 0; flex-basis: 100%; text-align: center; order: 1; }
.boin-table .boin-winner .ranking { margin: 0; display: flex; flex-wrap: wrap; gap: .2em 1.2em; }
.boin-table .boin-winner .ranking li { display: inline-flex; gap: .4em; }

/* phone */
.boin-phone { font-size: 1rem; }
.boin-phone .boin-play, .boin-phone .boin-result, .boin-phone .boin-how { border-radius: 14px; }
.boin-phone .boin-question, .boin-phone .boin-said { font-size: 1.2rem; }
.boin-phone .boin-answers { grid-template-columns: 1fr; font-size: 1rem; }
.boin-phone .boin-claim { font-size: 1.3rem; }
.boin-how-toggle summary, .boin-read summary, .boin-mini summary { cursor: pointer; font-weight: 750; min-height: var(--tap); display: flex; align-items: center; }
.boin-how-toggle { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 0 .8rem; }
.boin-how-toggle[open] { padding-bottom: .6rem; }
.boin-how-toggle ol { margin: 0; padding-left: 1.2em; display: grid; gap: .3em; }
.boin-me { display: flex; align-items: center; gap: .3em .6em; margin: 0; font-size: 1.1rem; background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: .55rem .8rem; }
.boin-me strong { font-weight: 900; }
.boin-choose-title { font-size: 1.3rem; font-weight: 850; margin: 0; }
.boin-choose { display: grid; gap: .5rem; }
.boin-choose .hint { margin: 0; }
.boin-hand-title { font-size: 1.05rem; color: var(--muted); margin: 0; }
.boin-hand { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem; }
.boin-card { border-radius: 16px; background: var(--panel); border: 2px solid var(--line); overflow: hidden; }
.boin-card-face {
  width: 100%; min-height: 84px; display: flex; align-items: stretch; justify-content: flex-start; gap: .7em;
  text-align: left; padding: .6em .7em; border: 0; border-radius: 0; background: transparent; font-size: 1rem; font-weight: 400;
}
button.boin-card-face { cursor: pointer; }
button.boin-card-face:hover:not(:disabled) { background: #303545; }
.boin-card.choosing { border-color: var(--accent); border-width: 3px; }
.boin-card-kind { flex: none; width: 5.4rem; display: grid; place-items: center; border-radius: 10px; font-weight: 900; color: #fff; font-size: .72rem; text-transform: uppercase; text-align: center; padding: .3em; line-height: 1.15; }
.boin-card-text { display: flex; flex-direction: column; gap: .15em; min-width: 0; flex: 1 1 auto; }
.boin-card-line { font-weight: 800; font-size: 1.15rem; line-height: 1.2; }
.boin-card-sub { color: var(--muted); font-size: .95rem; line-height: 1.25; }
.boin-card-preview { font-size: .95rem; line-height: 1.3; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.boin-play-it { font-weight: 900; color: var(--accent); font-size: 1rem; }
.boin-read { border-top: 1px solid var(--line); padding: 0 .8rem; }
.boin-read[open] { padding-bottom: .6rem; }
.boin-read ol, .boin-read ul { margin: 0; padding-left: 1.2em; display: grid; gap: .5em; }
.boin-read .boin-q { font-weight: 700; }
.boin-read .boin-qa { color: var(--muted); font-size: .92rem; }
.boin-read .boin-qa strong { color: #7ee2a8; }
.boin-hints { display: grid; gap: .45rem; background: var(--panel); border: 2px solid var(--accent); border-radius: 14px; padding: .6rem .8rem; }
.boin-hints p { margin: 0; font-size: 1.05rem; overflow-wrap: anywhere; }
.boin-hint-label { display: inline-block; font-weight: 900; color: var(--accent-ink); background: var(--accent); border-radius: 6px; padding: 0 .4em; margin-right: .4em; font-size: .9rem; }
.boin-hints .hint { margin: 0; }
.boin-phone.claiming [data-testid=prompt] .options { grid-template-columns: 1fr 1fr; grid-auto-flow: column; grid-template-rows: repeat(5, auto); }
.boin-phone.claiming [data-testid=prompt] .option { min-height: 56px; font-size: 1.05rem; padding: .5em .7em; }
.boin-phone [data-testid=prompt] .option .boin-truth { font-weight: 900; }
.boin-places { list-style: none; margin: 0; padding: 0; display: grid; gap: .3rem; }
.boin-places li { display: flex; align-items: center; gap: .5em; }
.boin-places .boin-place { margin-left: auto; }
.boin-mini { background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 0 .6rem .2rem; }
.boin-board.compact { gap: 2px; font-size: .62rem; }
.boin-board.compact .boin-space { border-width: 1px; border-radius: .3em; }
.boin-board.compact .boin-num { font-size: .8em; top: 0; left: .15em; }
.boin-board.compact .boin-big { font-size: 1.1em; }
.boin-board.compact .boin-pawn .token { font-size: .8em; }
.boin-board.compact .boin-space.occupied .boin-num { display: none; }
`;

let sheet = null;
let sheetUsers = 0;

/** A screen appears: the document adopts the sheet (once, however many screens use it). */
export function adoptStyles() {
  sheetUsers += 1;
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
  }
  if (!document.adoptedStyleSheets.includes(sheet)) document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

/** A screen goes: the document drops the sheet when no screen uses it. */
export function dropStyles() {
  sheetUsers = Math.max(0, sheetUsers - 1);
  if (!sheetUsers && sheet) document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
}
