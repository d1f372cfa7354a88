export { EMPTY_ROOT, HASH_SIZE, bytesEqual, leafHash, nodeHash } from './hash.js';
export {
  rangeNodes,
  splitPoint,
  type NodeId,
  type NodeLookup,
  type Resolved,
  type TreeNode,
} from './nodes.js';
export { CompactTree, merkleRoot, rootAt } from './compact.js';
export { consistencyPlan, consistencyProof, inclusionPlan, inclusionProof } from './proof.js';
export { rootFromInclusionProof, verifyConsistency, verifyInclusion } from './verify.js';
