import type { UrgencyWeights } from "@mw/shared/ai";

/**
 * The rubric (docs/urgency-engine.md) as hand-set points: the weighted rules
 * the trained weights are compared with, and the prior the training starts
 * from and is drawn back to. A routine request starts at 15.
 */
export const RUBRIC_POINTS: UrgencyWeights = {
  bias: 15,
  weights: {
    "c:breach": 65,
    "t:breach+data": 5,
    "c:vulnerability": 30,
    "t:data+lost": 55,
    "c:lost": 5,
    "t:everyone+outage": 40,
    "c:outage": 20,
    "t:everyone+blocked": 10,
    "t:money+blocked": 25,
    "t:money+outage": 15,
    "c:money": 5,
    "t:fulfilment+blocked": 40,
    "t:backup+blocked": 35,
    "t:backup+lost": 35,
    "c:backup": 5,
    "c:blocked": 10,
    "c:some": -5,
    "t:some+blocked": -5,
    "c:slow": 15,
    "c:soon": 10,
    "c:no_workaround": 10,
    "c:question": -10,
    "c:scope": -15,
    "c:no_rush": -15,
    "c:cosmetic": -10,
    "c:resolved": -25,
    "c:billing": -5,
    "c:risk": -5,
    "c:contained": -10,
  },
};
