"""[ and ] move to the previous / next trajectory (wrapping) in the stepper and the questions view."""

from seorap.tui.context import Selection
from seorap.tui.factory import make_app


def test_step_trajectory_wraps_and_resets_the_position():
    sel = Selection(trajectory_id="b", position=3)
    assert sel.step_trajectory(["a", "b", "c"], 1) and (sel.trajectory_id, sel.position) == ("c", 0)
    assert sel.step_trajectory(["a", "b", "c"], 1) and sel.trajectory_id == "a"
    assert sel.step_trajectory(["a", "b", "c"], -1) and sel.trajectory_id == "c"
    assert not Selection(trajectory_id="x").step_trajectory(["a"], 1)


async def test_brackets_change_trajectory_in_the_stepper_and_questions(ref):
    path, ids = ref
    app = make_app(path, run_id=ids["oracle"], trajectory_id="ko-c5-garam-db")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2", "right")
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert (app.ctx.selection.trajectory_id, app.ctx.selection.position) == ("ko-c5-seminar", 0)
        await pilot.press("3", "left_square_bracket")
        await pilot.pause()
        assert app.ctx.selection.trajectory_id == "ko-c5-garam-db"
