/* compare_replicates: the replicate comparisons of the compare report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_fmt.h"
#include "compare_replicates.h"

static char group_id(size_t group) { return (char)('A' + group); }

/* The fewest runs a side whose most extreme values reach p <= alpha. */
static size_t runs_needed(double alpha)
{
    size_t m = 2;
    while (m < 64 && nr_perm_p_min(m, m) > alpha)
        m++;
    return m;
}

/* "read p50 +23.0% (p = 0.029); ..." for the significant rows of a pool (new string, caller frees). */
static char *significant_list(const nr_compare_pool *p)
{
    nr_compare_list l;
    if (nr_compare_list_init(&l) < 0)
        return NULL;
    for (size_t i = 0; i < p->nstats; i++) {
        const nr_compare_pooled *r = &p->stats[i];
        if (r->verdict != NR_VERDICT_SIGNIFICANT)
            continue;
        char item[256], rel[32];
        nr_compare_fmt_rel(r->rel_diff, rel, sizeof rel);
        snprintf(item, sizeof item, "%s %s (p = %.2g, q = %.2g)", r->name, rel, r->perm.p_value, r->q_value);
        nr_compare_list_add(&l, item);
    }
    return nr_compare_list_done(&l);
}

void nr_compare_replicates_overview(nr_report_block *ov, const nr_compare_replicates_view *v)
{
    if (v->npools == 0)
        return;
    char buf[1024];
    snprintf(buf, sizeof buf,
             "Workloads with two or more runs a side are also compared over their runs together: a statistic's "
             "mean over the runs of A against its mean over the runs of the later group, by the exact permutation "
             "test of the difference (one value a run). Significant when p <= %g and the means differ by %.0f%% "
             "or more: a change that stands out from the spread between runs. Each statistic is tested on its "
             "own; q is its Benjamini-Hochberg adjusted p over the pool's statistics, and the changes with "
             "q <= %g are those that hold with at most %g%% of false ones among them.",
             v->opts->rule.replicate_alpha, 100 * v->opts->rule.rel_threshold, v->opts->rule.replicate_alpha,
             100 * v->opts->rule.replicate_alpha);
    nr_report_para(ov, NULL, buf);
    char fdr_head[64];
    snprintf(fdr_head, sizeof fdr_head, "of which q <= %g", v->opts->rule.replicate_alpha);
    const char *const heads[] = {"workload", "groups", "runs a side", "smallest possible p", "significant", fdr_head,
                                 "significant changes beyond the spread between runs"};
    nr_report_table *t = nr_report_table_new(ov, "Replicates", 7, heads, 0x3Cu);
    for (size_t i = 0; i < v->npools; i++) {
        const nr_compare_pool *p = &v->pools[i];
        nr_report_table_row(t);
        nr_report_table_cell(t, p->workload);
        snprintf(buf, sizeof buf, "A vs %c", group_id(p->group));
        nr_report_table_cell(t, buf);
        snprintf(buf, sizeof buf, "%zu", p->npairs);
        nr_report_table_cell(t, buf);
        snprintf(buf, sizeof buf, "%.2g", p->p_min);
        nr_report_table_cell(t, buf);
        if (p->p_min > v->opts->rule.replicate_alpha) {
            nr_report_table_cell(t, "-");
            nr_report_table_cell(t, "-");
            snprintf(buf, sizeof buf, "too few runs to test at p <= %g: %zu a side are needed",
                     v->opts->rule.replicate_alpha, runs_needed(v->opts->rule.replicate_alpha));
            nr_report_table_cell(t, buf);
            continue;
        }
        snprintf(buf, sizeof buf, "%zu", p->nsignificant);
        nr_report_table_cell(t, buf);
        snprintf(buf, sizeof buf, "%zu", p->nsignificant_fdr);
        nr_report_table_cell(t, buf);
        char *list = significant_list(p);
        nr_report_table_cell(t, list ? list : "?");
        free(list);
    }
}

static const char *const pooled_head[] = {"statistic", "A mean", "A runs, [min, max]", "B mean", "B runs, [min, max]",
                                          "B - A (means)", "relative", "permutation p", "BH q", "verdict"};
enum { POOLED_COLS = 10 };
#define POOLED_NUM_COLS 0x1FEu   /* columns 1..8 are numbers */

static void range_cell(nr_report_table *t, const char *unit, double lo, double hi)
{
    char x[64], y[64], buf[160];
    nr_compare_fmt_value(unit, lo, x, sizeof x);
    nr_compare_fmt_value(unit, hi, y, sizeof y);
    snprintf(buf, sizeof buf, "[%s, %s]", x, y);
    nr_report_table_cell(t, isnan(lo) ? "-" : buf);
}

static void pooled_row(nr_report_table *t, const nr_compare_pooled *s)
{
    char buf[160];
    nr_report_table_row(t);
    nr_report_table_cell(t, s->name);
    nr_compare_fmt_value(s->unit, s->a_mean, buf, sizeof buf);
    nr_report_table_cell(t, buf);
    range_cell(t, s->unit, s->a_min, s->a_max);
    nr_compare_fmt_value(s->unit, s->b_mean, buf, sizeof buf);
    nr_report_table_cell(t, buf);
    range_cell(t, s->unit, s->b_min, s->b_max);
    nr_compare_fmt_diff(s->unit, s->abs_diff, buf, sizeof buf);
    nr_report_table_cell(t, buf);
    nr_compare_fmt_rel(s->rel_diff, buf, sizeof buf);
    nr_report_table_cell(t, buf);
    if (isnan(s->perm.p_value))
        snprintf(buf, sizeof buf, "-");
    else
        snprintf(buf, sizeof buf, "%.3g (%s)", s->perm.p_value, s->perm.exact ? "exact" : "drawn");
    nr_report_table_cell(t, buf);
    if (isnan(s->q_value))
        snprintf(buf, sizeof buf, "-");
    else
        snprintf(buf, sizeof buf, "%.3g", s->q_value);
    nr_report_table_cell(t, buf);
    nr_report_table_cell(t, s->verdict == NR_VERDICT_SIGNIFICANT ? "SIGNIFICANT" : nr_verdict_name(s->verdict));
}

static void pooled_table(nr_report_block *b, const nr_compare_pool *p, const char *section, const char *caption)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nstats; i++)
        n += strcmp(p->stats[i].section, section) == 0;
    if (n == 0) {
        nr_report_para(b, "unavailable", "nothing pooled here: no row of this section is in every pair");
        return;
    }
    nr_report_table *t = nr_report_table_new(b, caption, POOLED_COLS, pooled_head, POOLED_NUM_COLS);
    for (size_t i = 0; i < p->nstats; i++)
        if (strcmp(p->stats[i].section, section) == 0)
            pooled_row(t, &p->stats[i]);
}

/* Which runs, the method's reach, and the rows that could not be pooled. */
static void pool_facts(nr_report_block *sec, const nr_compare_replicates_view *v, const nr_compare_pool *p)
{
    char buf[4096];
    size_t len = (size_t)snprintf(buf, sizeof buf, "%zu runs a side, pooled in pair order:", p->npairs);
    for (size_t k = 0; k < p->npairs && len < sizeof buf; k++)
        len += (size_t)snprintf(buf + len, sizeof buf - len, "%s %.200s with %.200s", k ? ";" : "",
                                v->pair_a[p->pairs[k]], v->pair_b[p->pairs[k]]);
    if (len < sizeof buf)
        snprintf(buf + len, sizeof buf - len, ". The smallest p %zu runs a side can give is %.2g.", p->npairs,
                 p->p_min);
    nr_report_para(sec, NULL, buf);
    if (p->p_min > v->opts->rule.replicate_alpha) {
        snprintf(buf, sizeof buf,
                 "Too few runs to test at p <= %g: every verdict is insufficient data. %zu runs a side are needed.",
                 v->opts->rule.replicate_alpha, runs_needed(v->opts->rule.replicate_alpha));
        nr_report_para(sec, "note", buf);
    }
    if (p->nunpooled) {
        size_t l = (size_t)snprintf(buf, sizeof buf, "Not pooled (not in every pair):");
        for (size_t k = 0; k < p->nunpooled && l < sizeof buf; k++)
            l += (size_t)snprintf(buf + l, sizeof buf - l, "%s %s", k ? ";" : "", p->unpooled[k]);
        nr_report_para(sec, "note", buf);
    }
}

static void pool_findings(nr_report_block *sec, const nr_compare_pool *p)
{
    char buf[1024], va[64], vb[64], rel[32];
    for (size_t i = 0; i < p->nstats; i++) {
        const nr_compare_pooled *s = &p->stats[i];
        if (s->verdict != NR_VERDICT_SIGNIFICANT)
            continue;
        nr_compare_fmt_value(s->unit, s->a_mean, va, sizeof va);
        nr_compare_fmt_value(s->unit, s->b_mean, vb, sizeof vb);
        nr_compare_fmt_rel(s->rel_diff, rel, sizeof rel);
        snprintf(buf, sizeof buf,
                 "%s: %s -> %s on average over %zu runs a side (%s; permutation p = %.3g, Benjamini-Hochberg q = "
                 "%.3g).",
                 s->name, va, vb, p->npairs, rel, s->perm.p_value, s->q_value);
        nr_report_finding(sec, s->name, buf, NULL);
    }
    if (p->nsignificant == 0)
        nr_report_para(sec, NULL, "No significant change beyond the spread between runs.");
    pooled_table(sec, p, "findings", "Findings rules: the share of runs where each fired");
}

static int add_pool(nr_report *rep, const nr_compare_replicates_view *v, size_t i)
{
    const nr_compare_pool *p = &v->pools[i];
    char title[512], id[64];
    snprintf(title, sizeof title, "%.200s: replicates, A vs %c (%zu runs a side)", p->workload, group_id(p->group),
             p->npairs);
    snprintf(id, sizeof id, "replicates-%zu", i + 1);
    nr_report_block *run = nr_report_add_run(rep, title, id);
    if (!run)
        return NR_E_NOMEM;
    nr_report_block *sec = nr_report_run_section(run, NR_SEC_FACTS);
    pool_facts(sec, v, p);
    pooled_table(sec, p, "run", "Run totals (regular files), over the runs");
    pooled_table(nr_report_run_section(run, NR_SEC_PHASES), p, "phase", "Per phase, over the runs");
    pooled_table(nr_report_run_section(run, NR_SEC_CONCENTRATION), p, "concentration",
                 "Concentration of the job files' bytes, over the runs");
    pooled_table(nr_report_run_section(run, NR_SEC_LATENCY), p, "latency",
                 "Latency per operation class, over the runs (the runs' exact quantiles)");
    pooled_table(nr_report_run_section(run, NR_SEC_TIMELINE), p, "throughput",
                 "Bytes per second inside the calls; write bursts, over the runs");
    pooled_table(nr_report_run_section(run, NR_SEC_ACCESS), p, "access", "Access pattern, over the runs");
    pool_findings(nr_report_run_section(run, NR_SEC_FINDINGS), p);
    return 0;
}

int nr_compare_replicates_articles(nr_report *rep, const nr_compare_replicates_view *v, nr_error *err)
{
    for (size_t i = 0; i < v->npools; i++)
        if (add_pool(rep, v, i) < 0)
            return nr_error_set(err, NR_E_NOMEM, "compare: out of memory for the replicates report");
    return 0;
}
