// Cards keep their order in a lane as floating-point positions: a card
// moved between two others takes the midpoint, so a move writes one row.
// After many moves into the same gap the midpoints run out of precision;
// then the lane is renumbered 1, 2, 3, ... in one transaction.

export const MIN_GAP = 1e-9;

export function positionBetween(before: number | null, after: number | null): number {
  if (before === null && after === null) return 1;
  if (before === null) return (after as number) - 1;
  if (after === null) return before + 1;
  return (before + after) / 2;
}

export function needsRenumber(before: number | null, after: number | null): boolean {
  return before !== null && after !== null && after - before < MIN_GAP;
}

export function renumber(positions: number[]): number[] {
  return positions.map((_, i) => i + 1);
}
