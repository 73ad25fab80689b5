"""Headless read models for the app (docs/design.md#the-app): what each screen shows, as plain dataclasses.

Every function here reads the run database (engine.store schema) and the corpus, and returns frozen
dataclasses; none of them imports Textual, so the same views serve the app, tests and benchmarks.
Scoring tables (verdicts, answers, scores...) are optional: when they are absent or empty the views
say so (``scored=False``) instead of inventing figures — the screens then show
"not scored yet — run `seorap score`".

Text in these views is untrusted document/model text; the app renders it literally.
"""

from __future__ import annotations

from seorap.engine.views.common import (  # noqa: F401
    bigrams, columns, containment, DELTA_LABEL, has_rows, human_overrides, item_label, JUDGE_MODES,
    latest_scoring, MARKS, NOT_SCORED, quadrant, QUADRANTS, REFERENCE_SYSTEMS, score_cards,
    _scores_table,
)
from seorap.engine.views.runs import (  # noqa: F401
    data_version, filter_rows, list_runs, replay_label, run_labels, RunSummary, standin_twins, STANDIN, system_label, SORT_KEYS, sort_rows, trajectory_rows, TrajectoryRow,
    _count_by_run,
)
from seorap.engine.views.doclines import (  # noqa: F401
    claim_spans, doc_lines, DocLine, merge_spans, MIN_SPAN, number_spans, shared_spans, _doc_lines,
    _NUMBER,
)
from seorap.engine.views.operations import (  # noqa: F401
    Candidate, Operation, operations_at, short_id, _as_text, _failures_at, _operation, _snapshot,
)
from seorap.engine.views.verdicts import (  # noqa: F401
    claim_verdicts, Verdict, _verdict,
)
from seorap.engine.views.stepper import (  # noqa: F401
    ClaimRow, fact_positions_matching, stale_fact_ids, step_view, warm_judge, judge_warm, StepView, StoreFact, timeline, TimelineEntry, _claim_rows,
    _stale_claims_until, _store_at,
)
from seorap.engine.views.lineage import (  # noqa: F401
    Lineage, lineage, Link, replaces_text, successor_text, UNKNOWN,
)
from seorap.engine.views.truth import (  # noqa: F401
    ground_truth, GroundTruth, late_mark, LateMark, op_count, OpCount,
)
from seorap.engine.views.history import (  # noqa: F401
    fact_history, FactHistory, FactVersion, _documents_by_position,
)
from seorap.engine.views.questions import (  # noqa: F401
    filter_questions, live_questions_view, QuestionRow, questions_view, QuestionsView, RankedFact,
    _question,
)
from seorap.engine.views.scores import (  # noqa: F401
    AuditKind, full_vs_filter_diff, judge_audit, JudgeAudit, MovedVerdict, RulerDiff, run_report,
    stored_figures, UNRELIABLE,
)
from seorap.engine.views.compare import (  # noqa: F401
    compare_runs, Flip, _fact_flips, _final_verdicts, _verdict_flips,
)
from seorap.engine.views.demo import (  # noqa: F401
    AnsweredQuestion, demo_tour, stale_case, StaleCase, StaleFactRow, TourStop, _stale_count,
    _stale_rows, _tour_stop,
)
from seorap.engine.views.accounting import (  # noqa: F401
    accounting_view, AccountingView,
)
