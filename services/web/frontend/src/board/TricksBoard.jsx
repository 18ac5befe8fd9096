// The trick-taking games (Forty-Two, Eighty-Four, Moon): the bidding, the contract, the trick
// being played and the last one taken, and the hand's score so far. The three layouts share
// most fields (bids, high_bid, phase, trick, tricks); Forty-Two and Eighty-Four add
// contract, declarer, marks, team_scores and taken (points per team), Moon adds trump,
// discard and tricks_taken (per seat). Field names: docs/rules/{forty_two,eighty_four,moon}.md.
import { Domino } from './Domino.jsx';
import { Facts, seatName } from './Facts.jsx';
import { tileKeys } from './tiles.js';

function Trick({ trick, size, caption }) {
  const tiles = trick.tiles || [];
  const seats = trick.seats || [];
  const keys = tileKeys(tiles);
  return (
    <figure class="trick">
      <figcaption>{caption}</figcaption>
      {tiles.length === 0 ? (
        <span class="muted">no tile yet</span>
      ) : (
        <div class="tile-row">
          {tiles.map((tile, i) => (
            <span class="placed" key={keys[i]}>
              <Domino tile={tile} vertical size={size} />
              <span class="tile-label">{seatName(seats[i])}</span>
            </span>
          ))}
        </div>
      )}
    </figure>
  );
}

function perTeam(values) {
  return Array.isArray(values) ? values.map((v, i) => `team ${i + 1}: ${v}`).join(', ') : null;
}

function tricksWon(tricks) {
  const won = new Map();
  for (const trick of tricks) won.set(trick.winner, (won.get(trick.winner) || 0) + 1);
  return [...won.entries()].sort((a, b) => a[0] - b[0]).map(([seat, n]) => `${seatName(seat)}: ${n}`).join(', ');
}

export function TricksBoard({ layout, size = 24 }) {
  const bids = layout.bids || [];
  const tricks = layout.tricks || [];
  const trick = layout.trick || { tiles: [], seats: [] };
  const last = tricks.length > 0 ? tricks[tricks.length - 1] : null;
  const high = layout.high_bid;
  // Forty-Two and Eighty-Four write the declarer's call as `contract`, Moon as `trump`; both
  // in action notation ("trump 5").
  const trump = layout.contract ?? layout.trump ?? null;
  return (
    <div class="board-tricks">
      <div class="bids">
        <span class="tile-label">bids</span>
        {bids.length === 0 ? (
          <span class="muted">none yet</span>
        ) : (
          bids.map((bid, i) => (
            <span key={i} class={`chip${high && high.seat === bid.seat && high.bid === bid.bid ? ' strong' : ''}`}>
              {seatName(bid.seat)}: {bid.bid}
            </span>
          ))
        )}
      </div>
      <div class="tricks">
        <Trick trick={trick} size={size} caption={`Trick${trick.leader === null || trick.leader === undefined ? '' : `, led by ${seatName(trick.leader)}`}`} />
        {last && (
          <Trick
            trick={last}
            size={Math.round(size * 0.75)}
            caption={`Last trick: ${seatName(last.winner)} took it${last.points !== undefined ? ` (${last.points} points)` : ''}`}
          />
        )}
      </div>
      <Facts
        items={[
          ['Phase', layout.phase],
          ['High bid', high ? `${high.bid} (${seatName(high.seat)})` : null],
          ['Contract', trump],
          ['Declarer', seatName(layout.declarer ?? (high ? high.seat : null))],
          ['Widow', layout.widow_taken ? 'taken' : null],
          ['Discard', typeof layout.discard === 'string' ? layout.discard : layout.discard ? 'laid' : null],
          ['Points taken', perTeam(layout.taken)],
          ['Tricks', layout.tricks_taken ? layout.tricks_taken.map((n, s) => `${seatName(s)}: ${n}`).join(', ') : tricks.length ? tricksWon(tricks) : null],
          ['Team scores', perTeam(layout.team_scores)],
          ['Marks', layout.scoring === 'marks' ? perTeam(layout.marks) : null],
          ['Target', layout.target],
          ['Shaker', seatName(layout.shaker)],
          ['Sitting out', seatName(layout.sitting_out)],
        ]}
      />
    </div>
  );
}
