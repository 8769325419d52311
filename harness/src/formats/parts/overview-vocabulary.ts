/**
 * Shared manifest vocabulary (ids, names, parameter selectors) and the Overview's picture of an
 * experiment, split from ../manifest-format.ts: the site reads the Overview of stored runs with it.
 */
import { z } from 'zod';
import type { Direction } from '../../model/metrics.js';
import { paramValue } from './parameter.js';

export const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes');
export const name = z.string().regex(/^[a-z_][a-z0-9_]*$/, 'lower-case identifier');

/** A parameter selector: {"bs": 65536} or {"bs": [4096, 65536]}. */
export const At = z.record(name, z.union([paramValue, z.array(paramValue)]));

export const Overview = z
  .object({
    title: z.string().optional(),
    /** Where the experiment comes on the Overview (smallest first; then by id). */
    order: z.number().int().optional(),
    x: name,
    metric: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
    /** More metrics drawn dashed on the same axes (p99 beside p50); same unit as `metric`. */
    also: z.array(z.string().min(1)).default([]),
    at: At.default({}),
    panels: name.optional(),
    references: z.array(z.object({ variant: id, label: z.string().optional() }).strict()).default([]),
    /** A least-squares slope per line over x, shown in the legend (streams: per transform). */
    slope: z.boolean().default(false),
    /** What one unit of x is called in the answer ("transform"); the parameter's name otherwise. */
    unitName: z.string().optional(),
    answer: z.discriminatedUnion('kind', [
      /** Each line over the reference variant `to` at the largest x; `to` over `ceiling` too. */
      z.object({ kind: z.literal('reference'), to: id, ceiling: id.optional() }).strict(),
      /** The smallest and largest fitted slope. */
      z.object({ kind: z.literal('slope') }).strict(),
      /** The metric at the largest x over the smallest, per line (the least and most changed). */
      z.object({ kind: z.literal('scaling') }).strict(),
      /** For each [a, b], b over a at the largest x. */
      z.object({ kind: z.literal('pairs'), pairs: z.array(z.tuple([id, id])).min(1) }).strict(),
    ]),
  })
  .strict();
export type Overview = z.infer<typeof Overview>;

export interface OverviewLine {
  label: string;
  variant: string;
  /** The metric this line shows (the overview's metric, or one of `also`, drawn dashed). */
  metric: string;
  values: (number | null)[];
  low: (number | null)[];
  high: (number | null)[];
  reference: boolean;
  dashed: boolean;
  /** A variant that does not take the x parameter: one value, drawn flat. */
  flat: boolean;
  /** The fitted slope per unit of x (overview.slope), with R². */
  slope?: { value: number; r2: number };
  colorIndex: number;
  /** Not drawn until its name in the legend is clicked (beyond the lines the answer names). */
  hidden?: boolean;
}

export interface OverviewPanel {
  /** The panel's parameter value ("cold"), or '' when there is one panel. */
  title: string;
  xs: number[];
  lines: OverviewLine[];
}

export interface OverviewModel {
  title: string;
  x: string;
  xUnit?: string;
  metric: string;
  unit: string;
  /** The metric's own direction: which end of the answer is the better. */
  direction: Direction;
  logX: boolean;
  panels: OverviewPanel[];
  /** One sentence answering the question, computed from the lines' intervals. */
  answer: string;
  /** Values the answer leaves out as implausible (better than the reference or the ceiling allows). */
  suspects: string[];
}
