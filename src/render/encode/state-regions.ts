// The states of an animation (drawings of one size that an animation holds and
// cross-fades between) kept at the size of where they differ: the first
// whole, and of each later one only the box where it differs from the first,
// so that a drawing can free each state once it is handed in. Once all are
// in, each state is given as the region where any of them differs from the
// first (animation-frame.ts's Animation), with a pixmap of that size for the
// fades. A banner's states differ in one line of text: an animated 1200x300
// at scale 2 held its three or four states and its fading frame at 5.8 MB each
// (docs/performance-notes.md, issue 38).

import { freeNow } from "../free-now.ts";
import { Pixmap } from "../pixmap.ts";
import { cropPixmap, differingBox, type FrameBox } from "./animation-frame.ts";

export interface RegionStates {
  /** Where on the canvas any state differs from the first, at even x and y (the 2x2 corner where none does). */
  region: FrameBox;
  /** Each state there, in the order handed in: pixmaps of the region's size. */
  states: Pixmap[];
  /** A pixmap of the region's size for the fades. */
  fading: Pixmap;
}

export class StateRegions {
  /** Each later state's pixels where it differs from the first (null: nowhere). */
  private readonly parts: Array<{ box: FrameBox; pixels: Pixmap } | null> = [];
  private made: RegionStates | null = null;

  /** `first` is kept (not copied) until regions(); the caller frees it after. */
  constructor(private readonly first: Pixmap) {}

  /** Keeps what `state` (the first's size) has of its own; the caller may free it after. */
  add(state: Pixmap): void {
    if (state.width !== this.first.width || state.height !== this.first.height) throw new RangeError("an animation's states are all one size");
    const box = differingBox(this.first.pixels, state.pixels, state.width);
    this.parts.push(box && { box, pixels: cropPixmap(state, box) });
  }

  /** Every state in the region; the boxes kept by add() are freed. */
  regions(): RegionStates {
    const { width, height } = this.first;
    const boxes = this.parts.flatMap((part) => (part ? [part.box] : []));
    let region: FrameBox = { x: 0, y: 0, width: Math.min(2, width), height: Math.min(2, height) };
    if (boxes.length > 0) {
      const x = Math.min(...boxes.map((box) => box.x)) & ~1, y = Math.min(...boxes.map((box) => box.y)) & ~1;
      const right = Math.max(...boxes.map((box) => box.x + box.width)), bottom = Math.max(...boxes.map((box) => box.y + box.height));
      region = { x, y, width: right - x, height: bottom - y };
    }
    const states = [cropPixmap(this.first, region)];
    for (const part of this.parts) {
      const state = cropPixmap(this.first, region);
      if (part) paste(part.pixels, state, part.box.x - region.x, part.box.y - region.y);
      states.push(state);
      if (part) freeNow(part.pixels.data);
    }
    this.parts.length = 0;
    this.made = { region, states, fading: new Pixmap(region.width, region.height) };
    return this.made;
  }

  /** The region's pixmaps freed at once (free-now.ts). */
  end(): void {
    for (const part of this.parts) if (part) freeNow(part.pixels.data);
    this.parts.length = 0;
    if (this.made) for (const pixmap of [...this.made.states, this.made.fading]) freeNow(pixmap.data);
    this.made = null;
  }
}

/** `from` copied into `into` with its corner at (x, y); it fits. */
function paste(from: Pixmap, into: Pixmap, x: number, y: number): void {
  for (let row = 0; row < from.height; row++) {
    into.pixels.set(from.pixels.subarray(row * from.width, (row + 1) * from.width), (y + row) * into.width + x);
  }
}
