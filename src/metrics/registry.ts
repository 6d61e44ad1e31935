// A small metrics registry: counters, histograms and gauges read at scrape
// time, written out in the Prometheus text format (version 0.0.4).
//
// Label values come from code (route templates, cache names) but also from
// outcomes (status codes); every metric keeps at most `maxSeries` label sets,
// and one more set is counted under "other" in every label, so a metric's
// memory and the scrape's size stay bounded whatever requests arrive.

export type Labels<L extends string> = { readonly [K in L]: string };

export interface MetricOptions<L extends string> {
  name: string;
  help: string;
  labelNames: readonly L[];
  /** Label sets kept before new ones are counted under "other". */
  maxSeries?: number;
}

export const DEFAULT_MAX_SERIES = 1000;
/** A label value longer than this is cut (values come from code and small fixed sets). */
const MAX_LABEL_CHARS = 128;
export const OVERFLOW_LABEL = "other";

function escapeLabel(value: string): string {
  return value.slice(0, MAX_LABEL_CHARS).replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatNumber(value: number): string {
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return Number.isNaN(value) ? "NaN" : String(value);
}

function labelText(names: readonly string[], values: readonly string[], extra = ""): string {
  const pairs = names.map((name, i) => `${name}="${escapeLabel(values[i]!)}"`);
  if (extra) pairs.push(extra);
  return pairs.length ? `{${pairs.join(",")}}` : "";
}

/** One label set's values and state; `next` indexes the sets that share its values so far. */
interface SeriesNode<T> {
  next: Map<string, SeriesNode<T>>;
  series?: { values: string[]; state: T };
}

/**
 * The label sets of one metric, bounded; `T` is what each set holds. Found by
 * one map lookup per label value (a trie), not by a key string built per
 * call: every request counts here.
 */
class SeriesTable<L extends string, T> {
  private readonly root: SeriesNode<T> = { next: new Map() };
  private readonly list: Array<{ values: string[]; state: T }> = [];

  constructor(
    private readonly options: MetricOptions<L>,
    private readonly create: () => T,
  ) {}

  get(labels: Labels<L>): T {
    const { labelNames } = this.options;
    let node: SeriesNode<T> | undefined = this.root;
    for (let i = 0; i < labelNames.length && node; i++) node = node.next.get(labels[labelNames[i]!]);
    return (node?.series ?? this.add(labelNames.map((name) => labels[name]))).state;
  }

  private find(values: string[]): { values: string[]; state: T } {
    let node: SeriesNode<T> | undefined = this.root;
    for (let i = 0; i < values.length && node; i++) node = node.next.get(values[i]!);
    return node?.series ?? this.add(values);
  }

  private add(values: string[]): { values: string[]; state: T } {
    if (this.list.length >= (this.options.maxSeries ?? DEFAULT_MAX_SERIES) && values.some((value) => value !== OVERFLOW_LABEL)) {
      return this.find(values.map(() => OVERFLOW_LABEL));
    }
    let node = this.root;
    for (const value of values) {
      let next = node.next.get(value);
      if (!next) {
        next = { next: new Map() };
        node.next.set(value, next);
      }
      node = next;
    }
    node.series = { values, state: this.create() };
    this.list.push(node.series);
    return node.series;
  }

  entries(): Iterable<{ values: string[]; state: T }> {
    return this.list;
  }
}

interface Metric {
  render(): string;
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${name} ${help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}\n# TYPE ${name} ${type}\n`;
}

export class Counter<L extends string = never> implements Metric {
  private readonly table: SeriesTable<L, { value: number }>;

  constructor(private readonly options: MetricOptions<L>) {
    this.table = new SeriesTable(options, () => ({ value: 0 }));
  }

  inc(labels: Labels<L>, by = 1): void {
    this.table.get(labels).value += by;
  }

  render(): string {
    const { name, help, labelNames } = this.options;
    let text = header(name, help, "counter");
    for (const { values, state } of this.table.entries()) text += `${name}${labelText(labelNames, values)} ${formatNumber(state.value)}\n`;
    return text;
  }
}

export interface HistogramOptions<L extends string> extends MetricOptions<L> {
  /** Upper bounds, ascending; +Inf is added. */
  buckets: readonly number[];
}

export class Histogram<L extends string = never> implements Metric {
  private readonly table: SeriesTable<L, { counts: number[]; sum: number; count: number }>;

  constructor(private readonly options: HistogramOptions<L>) {
    this.table = new SeriesTable(options, () => ({ counts: options.buckets.map(() => 0), sum: 0, count: 0 }));
  }

  observe(labels: Labels<L>, value: number): void {
    const state = this.table.get(labels);
    const { buckets } = this.options;
    let index = 0;
    while (index < buckets.length && value > buckets[index]!) index++;
    if (index < buckets.length) state.counts[index]!++;
    state.sum += value;
    state.count++;
  }

  render(): string {
    const { name, help, labelNames, buckets } = this.options;
    let text = header(name, help, "histogram");
    for (const { values, state } of this.table.entries()) {
      let cumulative = 0;
      buckets.forEach((bound, i) => {
        cumulative += state.counts[i]!;
        text += `${name}_bucket${labelText(labelNames, values, `le="${formatNumber(bound)}"`)} ${cumulative}\n`;
      });
      text += `${name}_bucket${labelText(labelNames, values, 'le="+Inf"')} ${state.count}\n`;
      text += `${name}_sum${labelText(labelNames, values)} ${formatNumber(state.sum)}\n`;
      text += `${name}_count${labelText(labelNames, values)} ${state.count}\n`;
    }
    return text;
  }
}

/**
 * A value read when scraped (memory, cache sizes): `collect` returns its label
 * sets. As a counter, the running totals something else keeps (a cache's hits).
 */
export class Collected<L extends string = never> implements Metric {
  constructor(
    private readonly type: "gauge" | "counter",
    private readonly options: MetricOptions<L>,
    private readonly collect: () => Iterable<[Labels<L>, number]>,
  ) {}

  render(): string {
    const { name, help, labelNames } = this.options;
    let text = header(name, help, this.type);
    let written = 0;
    for (const [labels, value] of this.collect()) {
      if (written++ >= (this.options.maxSeries ?? DEFAULT_MAX_SERIES)) break;
      text += `${name}${labelText(labelNames, labelNames.map((label) => labels[label]))} ${formatNumber(value)}\n`;
    }
    return text;
  }
}

export class Registry {
  private readonly metrics: Metric[] = [];

  counter<L extends string = never>(options: MetricOptions<L>): Counter<L> {
    return this.add(new Counter(options));
  }

  histogram<L extends string = never>(options: HistogramOptions<L>): Histogram<L> {
    return this.add(new Histogram(options));
  }

  gauge<L extends string = never>(options: MetricOptions<L>, collect: () => Iterable<[Labels<L>, number]>): Collected<L> {
    return this.add(new Collected("gauge", options, collect));
  }

  /** A counter whose totals are kept elsewhere and read when scraped. */
  collectedCounter<L extends string = never>(options: MetricOptions<L>, collect: () => Iterable<[Labels<L>, number]>): Collected<L> {
    return this.add(new Collected("counter", options, collect));
  }

  /** The Prometheus text exposition of every metric. */
  render(): string {
    return this.metrics.map((metric) => metric.render()).join("");
  }

  private add<M extends Metric>(metric: M): M {
    this.metrics.push(metric);
    return metric;
  }
}

/** The Content-Type of `Registry.render()`'s text. */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
