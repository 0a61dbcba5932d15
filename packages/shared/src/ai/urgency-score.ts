/** The built-in engine's weights: a start and points per feature (urgency-features.ts). */
export interface UrgencyWeights {
  bias: number;
  weights: Record<string, number>;
}

/** The score of a ticket's features, and the features that moved it, largest first. */
export function weighFeatures(model: UrgencyWeights, features: string[]): { score: number; counted: Array<[string, number]> } {
  const counted = features.flatMap((feature): Array<[string, number]> => (model.weights[feature] ? [[feature, model.weights[feature]]] : []));
  counted.sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return { score: counted.reduce((sum, [, weight]) => sum + weight, model.bias), counted };
}
