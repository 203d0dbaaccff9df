export { parametersDigest } from './answer-binding.js';
export {
  type BacktestChange,
  type BacktestChangeKind,
  type BacktestGroup,
  type BacktestOptions,
  type BacktestResult,
  type BacktestUnjudged,
  backtestDecisions,
} from './backtest.js';
export {
  type PolicyLayers,
  type PolicyRecordOptions,
  policyDigest,
  policyRecordedKind,
  policyRecordPayload,
} from './policy-record.js';
export {
  type DecisionFault,
  type DecisionsResult,
  type VerifyDecisionsOptions,
  verifyDecisions,
} from './verify-decisions.js';
