"""The browser lesson of tests/e2e/test_classroom_e2e.py across two real server processes on
one Redis (store and message queue): the teacher's pages on process A, the five students'
phones on process B."""

from __future__ import annotations

import pytest

from tests.cluster.test_two_processes import cluster_args
from tests.e2e.conftest import browser_type_launch_args  # noqa: F401  (the system's Chromium)
from tests.e2e.test_classroom_e2e import contexts, lesson, shots  # noqa: F401  (fixtures)

pytestmark = pytest.mark.e2e


@pytest.fixture
def base_url():
    return None  # each page says which process it opens


def test_a_lesson_with_the_teacher_on_one_process_and_the_students_on_another(
        redis_url, servers, contexts, shots):  # noqa: F811  (the fixtures imported above)
    a, b = servers(2, *cluster_args(redis_url))
    lesson(contexts, a.url, b.url, shots)
