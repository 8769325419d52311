// Types for the tests that import the generator.
export function cycles(graph: Map<string, string[]>): string[][];
export function assertAcyclic(graph: Map<string, string[]>): void;
export function project(total: number): {
  files: Map<string, string>;
  graph: Map<string, string[]>;
  counts: { files: number; imports: number; constants: number; functions: number };
};
