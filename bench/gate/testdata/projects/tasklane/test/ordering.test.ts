import { describe, expect, it } from "vitest";
import { needsRenumber, positionBetween, renumber } from "../src/services/ordering.js";

describe("positionBetween", () => {
  it("takes the midpoint between two cards", () => {
    expect(positionBetween(1, 2)).toBe(1.5);
  });
  it("puts a card first or last", () => {
    expect(positionBetween(null, 3)).toBe(2);
    expect(positionBetween(3, null)).toBe(4);
  });
});

describe("renumbering", () => {
  it("is needed once the gap is below MIN_GAP", () => {
    expect(needsRenumber(1, 1 + 1e-10)).toBe(true);
    expect(renumber([0.1, 0.2, 0.25])).toEqual([1, 2, 3]);
  });
});
