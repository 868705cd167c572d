/**
 * Splitting a rolled pool between the targets (RCS: Rapid-fire, Burst-fire, Automatic-fire): the
 * default split the rules engine makes when the player leaves it, and the checks on a split the
 * player makes by hand in the allocation step.
 *
 * The primary target (the first) gets at least as many bullets (clusters, in automatic fire) as any
 * other; every bullet of the pool is fired; in automatic fire every cluster goes to someone, and every
 * token in the danger space, chosen or bystander, gets a cluster while any are left.
 *
 * The default splits are the same as rules/megatraveller/allocation.py's (tests/js hold them to the
 * book's examples), so the allocation step starts where a one-step attack would have ended. Refusals
 * are FormErrors naming the field and the rule, in the player's language. Pure: no Foundry globals.
 */

import { FormError } from "../../fields.js";

/**
 * Rapid and burst fire: bullets dealt one at a time round the targets, primary first (Jong Wu's four
 * bullets at three guards come out 2/1/1, as in the book).
 * @param {number} bullets
 * @param {number} targets
 * @returns {number[]}
 */
export function defaultBulletSplit(bullets, targets) {
  const split = new Array(Math.max(0, targets)).fill(0);
  if (split.length === 0) return split;
  for (let k = 0; k < bullets; k += 1) split[k % split.length] += 1;
  return split;
}

/**
 * Automatic and controlled fire: the fewest bullets to bystanders, the most to the primary. Clusters
 * ranked largest first (ties by roll order); with enough for everyone each bystander gets one of the
 * smallest and the rest are dealt round the chosen targets, primary first; otherwise the largest go to
 * the chosen targets in order and the bystanders get what is left. Honjo Boram's 3, 6, 6, 1 at two
 * birds and an ally come out 6+3 / 6 / 1.
 * @param {number[]} clusters the rolled cluster sizes, in roll order
 * @param {boolean[]} bystanders per target (request order): caught in the danger space, not chosen
 * @returns {number[][]} per target, the indices of its clusters
 */
export function defaultClusterSplit(clusters, bystanders) {
  const order = clusters.map((_, i) => i).sort((a, b) => (clusters[b] ?? 0) - (clusters[a] ?? 0) || a - b);
  const chosen = bystanders.flatMap((by, t) => (by ? [] : [t]));
  const caught = bystanders.flatMap((by, t) => (by ? [t] : []));
  /** @type {number[][]} */
  const split = bystanders.map(() => []);
  if (order.length >= bystanders.length) {
    const smallest = order.slice(order.length - caught.length).reverse();
    caught.forEach((target, k) => split[target]?.push(/** @type {number} */ (smallest[k])));
    order.slice(0, order.length - caught.length).forEach((index, k) => {
      if (chosen.length) split[/** @type {number} */ (chosen[k % chosen.length])]?.push(index);
    });
  } else {
    [...chosen, ...caught].forEach((target, k) => {
      if (k < order.length) split[target]?.push(/** @type {number} */ (order[k]));
    });
  }
  return split;
}

/**
 * The bullets each target receives from its clusters.
 * @param {number[]} clusters
 * @param {number[][]} split
 */
export function clusterBullets(clusters, split) {
  return split.map((indices) => indices.reduce((sum, i) => sum + (clusters[i] ?? 0), 0));
}

/**
 * The primary (index 0) gets at least as many as any other single target.
 * @param {number[]} counts
 * @param {string} key the rule's words (bullets or clusters)
 */
function checkPrimaryLeads(counts, key) {
  const primary = counts[0] ?? 0;
  counts.forEach((count, k) => {
    if (k > 0 && count > primary) throw new FormError(`allocation.${k}`, key, { count, primary });
  });
}

/**
 * A rapid or burst split the player made: the whole pool, the primary not behind.
 * @param {number[]} split bullets per target
 * @param {number} bullets the pool
 */
export function checkBulletSplit(split, bullets) {
  const fired = split.reduce((sum, n) => sum + n, 0);
  if (fired !== bullets) throw new FormError("allocation", "VOLLEY.MegaTraveller.Form.SplitTotal", { fired, bullets });
  checkPrimaryLeads(split, "VOLLEY.MegaTraveller.Form.PrimaryBulletsBehind");
}

/**
 * An automatic split the player made: every cluster fired once, the primary not behind, and nobody
 * holding two while someone in the danger space has none.
 * @param {number[][]} split cluster indices per target
 * @param {number[]} clusters the rolled sizes
 */
export function checkClusterSplit(split, clusters) {
  /** @type {Map<number, number>} */
  const seen = new Map();
  split.forEach((indices, t) => {
    for (const index of indices) {
      if (!Number.isInteger(index) || index < 0 || index >= clusters.length) {
        throw new FormError(`allocation.${t}`, "VOLLEY.MegaTraveller.Form.NoSuchCluster", { cluster: index + 1, count: clusters.length });
      }
      if (seen.has(index)) throw new FormError(`allocation.${t}`, "VOLLEY.MegaTraveller.Form.ClusterTwice", { cluster: index + 1 });
      seen.set(index, t);
    }
  });
  const unused = clusters.map((_, i) => i).filter((i) => !seen.has(i));
  if (unused.length) throw new FormError("allocation", "VOLLEY.MegaTraveller.Form.ClustersLeft", { clusters: unused.map((i) => i + 1).join(", ") });
  const counts = split.map((indices) => indices.length);
  checkPrimaryLeads(counts, "VOLLEY.MegaTraveller.Form.PrimaryClustersBehind");
  const empty = counts.indexOf(0);
  if (empty >= 0 && Math.max(...counts) > 1) throw new FormError(`allocation.${empty}`, "VOLLEY.MegaTraveller.Form.ClusterEach");
}
