// The table of a view, drawn by the board of its game. Boards are pure functions of the
// layout; one that throws on a layout it does not expect (a new rule option, a field
// renamed) falls back to the generic board instead of blanking the page.
import { Component } from 'preact';
import { CastleRockBoard } from './CastleRockBoard.jsx';
import { ChickenfootBoard } from './ChickenfootBoard.jsx';
import { GenericBoard } from './GenericBoard.jsx';
import { MugginsBoard } from './MugginsBoard.jsx';
import { TrainsBoard } from './TrainsBoard.jsx';
import { TricksBoard } from './TricksBoard.jsx';

const boards = {
  muggins: MugginsBoard,
  castle_rock: CastleRockBoard,
  mexican_train: TrainsBoard,
  chickenfoot: ChickenfootBoard,
  forty_two: TricksBoard,
  eighty_four: TricksBoard,
  moon: TricksBoard,
};

class Fallback extends Component {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidUpdate(previous) {
    // A later view may fit the board again.
    if (this.state.failed && previous.layout !== this.props.layout) this.setState({ failed: false });
  }

  render({ board: GameBoard, layout }, { failed }) {
    return failed ? <GenericBoard layout={layout} /> : <GameBoard layout={layout} />;
  }
}

export function Board({ game, layout }) {
  const known = boards[game];
  const value = layout && typeof layout === 'object' ? layout : {};
  return (
    <section class="board" data-testid="board" data-game={game}>
      {known ? <Fallback board={known} layout={value} /> : <GenericBoard layout={value} />}
    </section>
  );
}
