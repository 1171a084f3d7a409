import { describe, expect, it } from "vitest";
import { LruCache } from "./cache";

describe("LruCache", () => {
  it("evicts the oldest entry beyond capacity", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.has("a")).toBe(false);
    expect(cache.size).toBe(2);
  });

  it("replaces a value without growing", () => {
    const cache = new LruCache<string, number>(2);
    cache.set("a", 1);
    cache.set("a", 2);
    expect(cache.get("a")).toBe(2);
    expect(cache.size).toBe(1);
  });
});
