// The game select of the ratings and player pages: the seven games (the overview's
// live_matches only names games being played right now).
import { gameName, knownGames } from '../format.js';

export function GamePicker({ game, onChange, testid = 'game-picker', games = knownGames }) {
  return (
    <label class="game-picker">
      Game
      <select value={game} onChange={(e) => onChange(e.currentTarget.value)} data-testid={testid}>
        {games.map((g) => (
          <option key={g} value={g}>
            {gameName(g)}
          </option>
        ))}
      </select>
    </label>
  );
}
