import { describe, expect, test } from "bun:test";
import {
  Path, Pixmap, fillPath, linearGradient, parseHexColor, radialGradient, rasterizeToMask, rgba, scale, solid,
} from "../../src/render/index.ts";

const full = (p: Pixmap) => new Path().rect(0, 0, p.width, p.height);

describe("colours", () => {
  test("hex colours parse; anything else is null", () => {
    expect(parseHexColor("#fa0")).toEqual(rgba(255, 170, 0));
    expect(parseHexColor("#12AB34")).toEqual(rgba(0x12, 0xab, 0x34));
    expect(parseHexColor("#12ab3480")).toEqual(rgba(0x12, 0xab, 0x34, 0x80));
    expect(parseHexColor("12ab34")).toBeNull();
    expect(parseHexColor("#12ab3")).toBeNull();
  });

  test("premultiplied storage converts back to straight colours", () => {
    const p = new Pixmap(2, 1);
    p.fill(rgba(200, 100, 50, 128));
    expect(p.data[0]).toBe(100);
    expect(p.pixel(0, 0)).toEqual(rgba(199, 100, 50, 128));
    expect([...p.toStraightRgba()].slice(0, 4)).toEqual([199, 100, 50, 128]);
  });
});

describe("linear gradients", () => {
  test("two stops interpolate along the axis at pixel centres and pad beyond the ends", () => {
    const p = new Pixmap(256, 2);
    fillPath(p, full(p), linearGradient(0, 0, 256, 0, [{ offset: 0, color: rgba(0, 0, 0) }, { offset: 1, color: rgba(255, 255, 255) }]));
    for (const x of [0, 64, 128, 200, 255]) expect(Math.abs(p.pixel(x, 1).r - (x + 0.5))).toBeLessThanOrEqual(1);
    const padded = new Pixmap(100, 1);
    fillPath(padded, full(padded), linearGradient(40, 0, 60, 0, [{ offset: 0, color: rgba(255, 0, 0) }, { offset: 1, color: rgba(0, 0, 255) }]));
    expect(padded.pixel(5, 0)).toEqual(rgba(255, 0, 0));
    expect(padded.pixel(95, 0)).toEqual(rgba(0, 0, 255));
  });

  test("several unsorted stops; a vertical axis; gradient coordinates follow the transform", () => {
    const p = new Pixmap(10, 100);
    fillPath(p, full(p), linearGradient(0, 0, 0, 100, [
      { offset: 1, color: rgba(0, 0, 255) }, { offset: 0, color: rgba(255, 0, 0) }, { offset: 0.5, color: rgba(0, 255, 0) },
    ]));
    expect(p.pixel(3, 0).r).toBeGreaterThan(250);
    expect(p.pixel(3, 50).g).toBeGreaterThan(250);
    expect(p.pixel(3, 99).b).toBeGreaterThan(250);
    const scaled = new Pixmap(100, 1);
    fillPath(scaled, new Path().rect(0, 0, 10, 1), linearGradient(0, 0, 10, 0, [{ offset: 0, color: rgba(0, 0, 0) }, { offset: 1, color: rgba(250, 0, 0) }]), { transform: scale(10, 1) });
    expect(Math.abs(scaled.pixel(50, 0).r - 126)).toBeLessThanOrEqual(2);
  });

  test("translucent stops interpolate premultiplied: no dark fringe towards transparent", () => {
    const p = new Pixmap(101, 1);
    fillPath(p, full(p), linearGradient(0.5, 0, 100.5, 0, [{ offset: 0, color: rgba(255, 255, 255) }, { offset: 1, color: rgba(0, 0, 0, 0) }]));
    const middle = p.pixel(50, 0);
    expect(Math.abs(middle.a - 128)).toBeLessThanOrEqual(1);
    expect(middle.r).toBeGreaterThanOrEqual(254); // straight colour stays white
  });
});

describe("radial gradients", () => {
  test("offset follows the distance from the centre", () => {
    const p = new Pixmap(101, 101);
    fillPath(p, full(p), radialGradient(50.5, 50.5, 50, [{ offset: 0, color: rgba(255, 255, 255) }, { offset: 1, color: rgba(0, 0, 0) }]));
    expect(p.pixel(50, 50).r).toBeGreaterThan(250);
    expect(Math.abs(p.pixel(75, 50).r - 127)).toBeLessThanOrEqual(2);
    expect(Math.abs(p.pixel(50, 25).r - 127)).toBeLessThanOrEqual(2);
    expect(p.pixel(0, 0).r).toBe(0);
  });
});

describe("opacity and clipping", () => {
  test("opacity scales a fill's alpha", () => {
    const p = new Pixmap(4, 4);
    fillPath(p, full(p), solid(rgba(0, 0, 255)), { opacity: 0.25 });
    expect(p.pixel(1, 1)).toEqual(rgba(0, 0, 255, 64));
  });

  test("a clip mask limits and weights a fill", () => {
    const p = new Pixmap(10, 10);
    const clip = rasterizeToMask(new Path().rect(2, 2, 4.5, 3));
    fillPath(p, full(p), linearGradient(0, 0, 10, 0, [{ offset: 0, color: rgba(255, 0, 0) }, { offset: 1, color: rgba(255, 0, 0) }]), { clip });
    expect(p.pixel(1, 3).a).toBe(0);
    expect(p.pixel(3, 3)).toEqual(rgba(255, 0, 0));
    expect(p.pixel(6, 3).a).toBe(128);
    expect(p.pixel(3, 6).a).toBe(0);
    const solidClip = new Pixmap(10, 10);
    fillPath(solidClip, full(solidClip), solid(rgba(0, 255, 0)), { clip });
    expect(solidClip.pixel(6, 3).a).toBe(128);
    expect(solidClip.pixel(8, 8).a).toBe(0);
  });

  test("source-over keeps what lies below translucent paint", () => {
    const p = new Pixmap(2, 2);
    p.fill(rgba(255, 0, 0));
    fillPath(p, full(p), solid(rgba(0, 0, 255, 128)));
    expect(p.pixel(0, 0)).toEqual(rgba(127, 0, 128));
  });
});
