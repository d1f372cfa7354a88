import { describe, expect, it } from 'vitest';
import { audit } from '../audit/audit.js';
import type { EvidenceSummary } from '../audit/finding.js';
import { FlightSheet } from '../schemas/flight-sheet.js';
import { computeVerdict } from '../verdict/compute.js';
import { BUILTIN_FLIGHT_SHEETS } from './builtin.js';
import { flightSheetContent, flightSheetSha256 } from './sha256.js';
import { validateFlightSheetInput } from './validate.js';

function sheet(slug: string): FlightSheet {
  const found = BUILTIN_FLIGHT_SHEETS.find((s) => s.slug === slug);
  if (!found) throw new Error(`no built-in sheet ${slug}`);
  return found;
}

const statuses = (checks: { key: string; status: string }[]) =>
  Object.fromEntries(checks.map((c) => [c.key, c.status]));

describe('BUILTIN_FLIGHT_SHEETS', () => {
  it('ships at least three valid sheets, two in lane agent, with stable unique ids', () => {
    expect(BUILTIN_FLIGHT_SHEETS.length).toBeGreaterThanOrEqual(3);
    expect(BUILTIN_FLIGHT_SHEETS.filter((s) => s.lane === 'agent').length).toBeGreaterThanOrEqual(
      2,
    );
    expect(new Set(BUILTIN_FLIGHT_SHEETS.map((s) => s.id)).size).toBe(BUILTIN_FLIGHT_SHEETS.length);
    for (const s of BUILTIN_FLIGHT_SHEETS) {
      expect(s.id).toBe(`fs_${s.slug}_1`);
      expect(s.version).toBe('1.0.0');
      expect(FlightSheet.parse(s)).toEqual(s);
      expect(validateFlightSheetInput(flightSheetContent(s))).toEqual(flightSheetContent(s));
      expect(s.sha256).toBe(flightSheetSha256(s));
    }
  });

  it('has one sheet with checklist rules and one all-auto sheet with a math rule', () => {
    expect(
      BUILTIN_FLIGHT_SHEETS.some((s) => s.audit_checks.some((r) => r.kind === 'checklist')),
    ).toBe(true);
    expect(
      BUILTIN_FLIGHT_SHEETS.some(
        (s) =>
          s.audit_checks.every((r) => r.kind === 'auto') &&
          s.audit_checks.some((r) => r.category === 'math'),
      ),
    ).toBe(true);
  });

  it('is immutable', () => {
    const s = sheet('agent-task-report');
    expect(() => {
      (s as { name: string }).name = 'changed';
    }).toThrow(TypeError);
    expect(Object.isFrozen(s.audit_checks[0])).toBe(true);
  });
});

describe('agent-task-report', () => {
  const good = {
    task: 'Summarize the quarterly incident reports',
    status: 'completed',
    agent: { name: 'scribe', model: 'm-1' },
    steps: [
      { name: 'fetch reports', tool: 'http', outcome: 'ok', duration_ms: 1200, cost_usd: '0.10' },
      { name: 'summarize', tool: 'llm', outcome: 'ok', duration_ms: 5400, cost_usd: 0.2 },
    ],
    totals: { cost_usd: '0.30', duration_ms: 6600 },
    budget_usd: '1.00',
    summary: 'Four incidents, all resolved.',
  };
  const log: EvidenceSummary[] = [{ kind: 'log' }];

  it('passes a consistent report with a log attached, deterministically', () => {
    const result = audit(sheet('agent-task-report'), good, log);
    expect(result).toMatchObject({ deterministic: true, needs_grading: false });
    expect(result.checks.every((c) => c.status === 'pass')).toBe(true);
    expect(computeVerdict(result.checks, sheet('agent-task-report'))).toMatchObject({
      outcome: 'pass',
      score: 100,
      severity: 'honey',
    });
  });

  it('skips the budget rule when no budget is stated', () => {
    const { budget_usd: _budget, ...noBudget } = good;
    expect(statuses(audit(sheet('agent-task-report'), noBudget, log).checks).within_budget).toBe(
      'skip',
    );
  });

  it('flags totals that do not add up, a leaked key, an overrun and a missing log', () => {
    const bad = {
      ...good,
      status: 'partial',
      totals: { cost_usd: '2.30' },
      summary: 'Done. Used password=hunter2 for the portal.',
    };
    const result = audit(sheet('agent-task-report'), bad, []);
    expect(statuses(result.checks)).toEqual({
      report_fields_present: 'pass',
      matches_report_schema: 'pass',
      step_costs_add_up: 'flag',
      within_budget: 'flag',
      task_completed: 'flag',
      no_leaked_secrets: 'flag',
      execution_log_attached: 'flag',
    });
    expect(computeVerdict(result.checks, sheet('agent-task-report'))).toMatchObject({
      outcome: 'fail',
      severity: 'propolis',
    });
  });
});

describe('support-reply', () => {
  const good = {
    ticket_id: 'T-1042',
    language: 'en',
    customer_message: 'How do I export my invoices?',
    reply: {
      subject: 'Exporting invoices',
      body: 'Open Billing, choose Invoices and press Export.',
    },
    escalate: false,
    cited_articles: [{ title: 'Exporting invoices', url: 'https://help.example.com/export' }],
  };

  it('leaves the checklist open for a grader and passes the automatic rules', () => {
    const result = audit(sheet('support-reply'), good, [{ kind: 'text' }]);
    expect(result).toMatchObject({ deterministic: false, needs_grading: true });
    const open = result.checks.filter((c) => c.status === 'open');
    expect(open.map((c) => c.key)).toEqual([
      'answers_the_question',
      'claims_are_accurate',
      'escalation_is_right',
      'tone_fits',
    ]);
    expect(open[0]!.detail).toMatch(/^Read the customer's message/);
    expect(result.checks.filter((c) => c.kind === 'auto').every((c) => c.status === 'pass')).toBe(
      true,
    );
  });

  it('flags a forbidden promise, an escalation without a reason and an unsupported language', () => {
    const bad = {
      ...good,
      language: 'sv',
      escalate: true,
      reply: { body: 'We GUARANTEE a full refund.' },
    };
    const result = statuses(audit(sheet('support-reply'), bad, []).checks);
    expect(result).toMatchObject({
      reply_present: 'pass',
      matches_reply_schema: 'flag',
      no_forbidden_promises: 'flag',
      supported_language: 'flag',
      conversation_attached: 'flag',
    });
  });
});

describe('invoice-extraction', () => {
  const good = {
    document_id: 'doc-7',
    vendor: { name: 'Acme Supplies' },
    invoice_number: 'INV-2026-0042',
    invoice_date: '2026-03-01',
    currency: 'EUR',
    line_items: [
      { description: 'Paper', quantity: 10, unit_price: '4.99', amount: '49.90' },
      { description: 'Toner', quantity: 1, unit_price: 80.1, amount: 80.1 },
      { description: 'Discount', amount: '-10.00' },
    ],
    subtotal: '120.00',
    tax: '22.80',
    total: '142.80',
  };

  it('passes a consistent extraction with the source attached', () => {
    const result = audit(sheet('invoice-extraction'), good, [{ kind: 'file' }]);
    expect(result.deterministic).toBe(true);
    expect(result.checks.every((c) => c.status === 'pass')).toBe(true);
  });

  it('skips the tax rule when no tax was extracted', () => {
    const { tax: _tax, ...noTax } = good;
    expect(
      statuses(audit(sheet('invoice-extraction'), noTax, [{ kind: 'file' }]).checks)
        .tax_not_negative,
    ).toBe('skip');
  });

  it('flags lines that miss the subtotal, a total below it, negative tax and placeholders', () => {
    const bad = {
      ...good,
      vendor: { name: 'TBD' },
      currency: 'SEK',
      subtotal: '130.00',
      tax: '-1',
      total: 'unknown',
    };
    const result = audit(sheet('invoice-extraction'), bad, []);
    expect(statuses(result.checks)).toEqual({
      header_fields_present: 'pass',
      matches_invoice_schema: 'flag',
      lines_sum_to_subtotal: 'flag',
      total_covers_subtotal: 'flag',
      tax_not_negative: 'flag',
      currency_supported: 'flag',
      no_placeholder_values: 'flag',
      source_document_attached: 'flag',
    });
    const total = result.checks.find((c) => c.key === 'total_covers_subtotal')!;
    expect(total.detail).toBe('/total is "unknown", not a number.');
    expect(computeVerdict(result.checks, sheet('invoice-extraction')).outcome).toBe('fail');
  });
});
