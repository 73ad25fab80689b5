"""Headless read models for the app (docs/design.md#the-app): what each screen shows, as plain dataclasses.

Every function here reads the run database (engine.store schema) and the corpus, and returns frozen
dataclasses; none of them imports Textual, so the same views serve the app, tests and benchmarks.
Scoring tables (verdicts, answers, scores...) are optional: when they are absent or empty the views
say so (``scored=False``) instead of inventing figures — the screens then show
"not scored yet — run `seorap score`".

Text in these views is untrusted document/model text; the app renders it literally.
"""

from __future__ import annotations

from seorap.engine.views.accounting import (  # noqa: F401
    AccountingView,
    accounting_view,
    cost_lines,
)
from seorap.engine.views.claim_path import (  # noqa: F401
    ClaimPath,
    claim_path,
    claim_paths,
    contested,
)
from seorap.engine.views.common import (  # noqa: F401
    DELTA_LABEL,
    JUDGE_MODES,
    MARKS,
    NOT_SCORED,
    QUADRANTS,
    REFERENCE_SYSTEMS,
    bigrams,
    columns,
    containment,
    human_overrides,
    item_label,
    latest_scoring,
    quadrant,
    score_cards,
)
from seorap.engine.views.compare import (  # noqa: F401
    Flip,
    SideFigures,
    compare_runs,
    side_figures,
)
from seorap.engine.views.demo import (  # noqa: F401
    AnsweredQuestion,
    StaleCase,
    StaleFactRow,
    TourStop,
    demo_tour,
    stale_case,
    tour_gaps,
)
from seorap.engine.views.doclines import (  # noqa: F401
    MIN_SPAN,
    DocLine,
    claim_spans,
    doc_lines,
    merge_spans,
    number_spans,
    shared_spans,
)
from seorap.engine.views.history import (  # noqa: F401
    FactHistory,
    FactVersion,
    fact_history,
)
from seorap.engine.views.lineage import (  # noqa: F401
    UNKNOWN,
    Lineage,
    Link,
    lineage,
    replaces_text,
    successor_text,
)
from seorap.engine.views.operations import (  # noqa: F401
    Candidate,
    Operation,
    operations_at,
    short_id,
)
from seorap.engine.views.questions import (  # noqa: F401
    QuestionRow,
    QuestionsView,
    RankedFact,
    filter_questions,
    live_questions_view,
    questions_view,
)
from seorap.engine.views.readtime import ReadHit, ReadTime, read_times  # noqa: F401
from seorap.engine.views.runs import (  # noqa: F401
    SORT_KEYS,
    STANDIN,
    RunSummary,
    TrajectoryRow,
    data_version,
    filter_rows,
    list_runs,
    replay_label,
    run_labels,
    sort_rows,
    standin_twins,
    system_label,
    trajectory_rows,
)
from seorap.engine.views.scores import (  # noqa: F401
    UNRELIABLE,
    AuditKind,
    JudgeAudit,
    MovedVerdict,
    RulerDiff,
    full_vs_filter_diff,
    judge_audit,
    run_report,
    stored_figures,
)
from seorap.engine.views.stepper import (  # noqa: F401
    ClaimRow,
    StepView,
    StoreFact,
    TimelineEntry,
    fact_positions_matching,
    judge_warm,
    stale_fact_ids,
    step_view,
    timeline,
    warm_judge,
)
from seorap.engine.views.steps import (  # noqa: F401
    FILTER_LABELS,
    FILTERS,
    Match,
    StepSummary,
    fact_id_query,
    filter_store,
    next_match,
    operations_order,
    search_matches,
    step_summary,
    store_order,
    supersede_text,
)
from seorap.engine.views.truth import (  # noqa: F401
    GroundTruth,
    LateMark,
    OpCount,
    ground_truth,
    late_mark,
    op_count,
)
from seorap.engine.views.verdicts import (  # noqa: F401
    Verdict,
    claim_verdicts,
)
