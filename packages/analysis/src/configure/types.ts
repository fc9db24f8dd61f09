// Result shapes of the configurator (extensions section 6), shared by the command line and the hub.

export type FeatureState = 'selected' | 'deselected' | 'forced' | 'excluded' | 'open';

/** A partial configuration: the user's decisions, by feature name. */
export interface Decisions {
  selected: string[];
  deselected: string[];
}

interface ModelScope {
  /** false when constraints the Boolean analysis cannot express were left out (the answer is over the Boolean part). */
  boolean_only: boolean;
  ignored_constraints: number;
  timings_ms: Record<string, number>;
}

export interface ConsistentResult extends ModelScope {
  consistent: true;
  /** Configurations extending the decisions (exact decimal), null when not counted. */
  remaining: string | null;
  remaining_status: 'exact' | 'timeout' | 'skipped';
  features: Record<string, FeatureState>;
}

export interface ConflictResult extends ModelScope {
  consistent: false;
  conflict: {
    /** A minimal subset of the decisions with no extension: `selected A`, `deselected B`. */
    decisions: string[];
    /** A minimal set of constraint lines (`Line <n>: <source>`) that with the tree and those decisions has no configuration. */
    constraints: string[];
  };
}

export type ConfigureResult = ConsistentResult | ConflictResult;

export interface WhyResult {
  feature: string;
  state: FeatureState;
  /** Decisions and constraint lines, ["tree"] when the tree alone implies the state; null for an open feature. */
  why: string[] | null;
}
