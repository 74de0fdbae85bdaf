import { describe, expect, it, vi } from "vitest";
import { errorHandler, HttpError } from "../src/util/errors.js";

function response() {
  const res: any = {};
  res.status = vi.fn(() => res);
  res.json = vi.fn(() => res);
  return res;
}

describe("errorHandler", () => {
  it("renders an HttpError as the API's error body", () => {
    const res = response();
    errorHandler(new HttpError(409, "conflict", "changed"), { path: "/cards/1" } as any, res, () => {});
    expect(res.status).toHaveBeenCalledWith(409);
    expect(res.json).toHaveBeenCalledWith({ error: { code: "conflict", message: "changed" } });
  });
  it("hides other errors behind a 500", () => {
    const res = response();
    errorHandler(new Error("boom"), { path: "/" } as any, res, () => {});
    expect(res.status).toHaveBeenCalledWith(500);
  });
});
