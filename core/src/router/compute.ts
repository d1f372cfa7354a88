import type { ComputeNodeRecord, QuoteRecord } from '../ports/router-storage.js';
import type { RouterUseCases } from './api.js';
import { activeMember, type RouterContext } from './context.js';
import { routerId } from './ids.js';
import { NodeClass } from '../schemas/enums.js';
import { CURRENCY, HOURLY_RATES, quote } from './pricing.js';
import { toNode } from './views.js';

type ComputeUseCases = Pick<RouterUseCases, 'inventory' | 'registerNode' | 'quote'>;

export function computeUseCases(ctx: RouterContext): ComputeUseCases {
  const { storage, clock, random, outbox } = ctx;
  return {
    async inventory() {
      const { nodes, workers } = await storage.read(async (tx) => ({
        nodes: await tx.computeNodes.list(),
        workers: await tx.workers.countByClass(),
      }));
      return {
        node_classes: NodeClass.options.map((cls) => ({
          node_class: cls,
          hourly_rate: HOURLY_RATES[cls],
          currency: CURRENCY,
          nodes: nodes.filter((n) => n.node_class === cls).length,
          workers: workers[cls] ?? 0,
        })),
        nodes: nodes.map(toNode),
      };
    },

    async registerNode(input) {
      const node: ComputeNodeRecord = {
        node_id: routerId('nod', random),
        name: input.name.trim(),
        node_class: input.node_class,
        status: 'available',
        created_at: clock.now().toISOString(),
      };
      await storage.write((tx) => tx.computeNodes.insert(node));
      return toNode(node);
    },

    async quote(input) {
      // Priced from the server table only; input.rate and input.hourly_rate are never read.
      const priced = quote(input.node_class, input.hours);
      const now = clock.now();
      const at = now.toISOString();
      return outbox.write(async (tx, receipts) => {
        await activeMember(tx, input.member_id, now);
        const quoteId = routerId('quo', random);
        const r = ctx.receipt(
          'compute_quote',
          at,
          {
            quote_id: quoteId,
            member_id: input.member_id,
            node_class: priced.node_class,
            hours: priced.hours,
          },
          priced.amount,
        );
        const record: QuoteRecord = {
          quote_id: quoteId,
          member_id: input.member_id,
          node_class: priced.node_class,
          hours: priced.hours,
          hourly_rate: priced.hourly_rate,
          amount: priced.amount,
          currency: priced.currency,
          receipt_id: r.receipt_id,
          created_at: at,
        };
        await tx.quotes.insert(record);
        receipts.push(r);
        return { ...record, currency: priced.currency };
      });
    },
  };
}
