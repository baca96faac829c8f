"""The lesson formats' store on Redis: the SQLite store's tests again (tests/web/test_formats_store.py)."""

import pytest

from tests.web.test_formats_store import (  # noqa: F401  (collected here again, with the Redis store)
    test_answers_are_added_once_and_go_with_their_class,
    test_items_are_versioned_records_of_a_class,
)
from webapp.stores.formats import RedisFormatStore


@pytest.fixture
def formats_store(redis_url):
    return RedisFormatStore(redis_url)
