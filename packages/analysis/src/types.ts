// The result shape of extensions section 1 ("Result shape"), shared by the CLI and the hub's API.

export type LanguageLevelName = 'boolean' | 'arithmetic' | 'type';

export interface ModelMetrics {
  /** Every feature of the tree, the root included (flamapy's and the corpus manifest's count). */
  features: number;
  leaf_features: number;
  abstract_features: number;
  /** Features with at least one child. */
  compound_features: number;
  /** Longest root-to-leaf path in edges (a lone root has depth 0). */
  depth: number;
  groups: { or: number; alternative: number; cardinality: number };
  constraints: number;
  /** Constraints that are a literal, an implication or an equivalence of two literals, or a clause of 2 literals. */
  simple_constraints: number;
  complex_constraints: number;
  features_in_constraints: number;
  attributes: number;
  typed_features: number;
  language_level: LanguageLevelName;
}

export interface ConfigurationsEstimate {
  /** Decimal string. */
  value: string;
  log10: number;
  epsilon: number;
  delta: number;
  method: string;
}

export type OperationName = 'satisfiable' | 'count' | 'backbone' | 'false_optional' | 'atomic_sets' | 'explanations';

/** A constraint the Boolean analysis leaves out. */
export interface IgnoredConstraint {
  /** Its line in the file (null for a constraint of an imported model). */
  line: number | null;
  /** Its source text as written (printed, for an imported one). */
  constraint: string;
  /** Why, in words: "`C` is not a feature", or that it is arithmetic, aggregate or string. */
  reason: string;
}

export interface AnalysisResult {
  valid: true;
  boolean_only: boolean;
  ignored_constraints: number;
  /**
   * The ignored constraints one by one (ignored_constraints counts them): the constraints
   * section's in order, then constraint attributes and imported models' constraints. Always set
   * by the engine; optional for results stored before it was added.
   */
  ignored?: IgnoredConstraint[];
  /** null when the satisfiability check timed out. */
  satisfiable: boolean | null;
  /** An exact decimal integer, or null when not computed. */
  configurations: string | null;
  configurations_status: 'exact' | 'timeout' | 'skipped';
  /**
   * Only when the exact count ran out of time (`configurations` null): an estimate within a factor
   * (1 + epsilon) of the count with probability at least 1 - delta (extensions section 6a).
   */
  configurations_estimate?: ConfigurationsEstimate;
  core: string[] | null;
  dead: string[] | null;
  false_optional: string[] | null;
  variant: string[] | null;
  atomic_sets: string[][] | null;
  /** null when the explanations ran out of time (what they had found is not kept: nothing is guessed). */
  explanations: {
    void: string[];
    dead: Record<string, string[]>;
    false_optional: Record<string, string[]>;
  } | null;
  /**
   * For a dead or false-optional feature whose explanation's constraints never name it: how they
   * reach it through the tree, one sentence per step ("F is a child of G, which the constraint
   * excludes"). Set by the engine on every satisfiable model; absent from results stored before.
   */
  explanation_paths?: {
    dead: Record<string, string[]>;
    false_optional: Record<string, string[]>;
  };
  /** Why an anomaly has an empty explanation: caused by the tree alone. Keys: 'void' or the feature name. */
  reasons?: Record<string, 'tree'>;
  /** One valid configuration (feature names, sorted), when satisfiable. */
  sample_configuration?: string[];
  metrics: ModelMetrics;
  timings_ms: Record<string, number>;
  /** Operations that ran out of their time budget (their values are null). */
  timeouts?: OperationName[];
}

export interface InvalidModelResult {
  valid: false;
  errors: string[];
}

export interface AnalyzeOptions {
  /** Total time budget in milliseconds for all operations (default 60 000). */
  timeoutMs?: number;
  /** The source text the model was parsed from: explanations quote constraints from it. */
  text?: string;
  /** Skip the exact count (configurations_status 'skipped'); the anomalies then come from SAT calls. */
  skipCount?: boolean;
  /**
   * Whether the count and the anomalies come from the compiled form when the model compiles within
   * its share of the budget (default true). False: the SAT-based operations and the counter, which
   * a model that does not compile in time gets anyway (the tests compare both).
   */
  useCompiledForm?: boolean;
  /**
   * Budget of the exact count in milliseconds, instead of its share of what is left; 0: no exact
   * count, as if it ran out of time (tests: a model of any size takes the way of one too hard to
   * count, to its estimate).
   */
  countBudgetMs?: number;
  /** Seed of the estimate's random hashes (default 1: the same model gives the same estimate). */
  estimateSeed?: number;
  /**
   * False: the estimate hashes the whole model, no component counted exactly first (tests of the
   * hashing, on models small enough for their components to be counted).
   */
  estimateFactor?: boolean;
  /**
   * Called as results become known (satisfiable, core and dead first, then the count, ...), with a
   * copy of the result so far and the operations still to run; a caller can store and show each
   * value as soon as it exists instead of waiting for the slowest operation.
   */
  onProgress?: (partial: AnalysisResult, running: OperationName[]) => void;
}
