"""Issue 22, held-out phrasings of the shipped domains: the general rules (and the few domain-own
words) that the misses of held-out set 5 pointed at, each checked as a user sees it: the tool chosen
and the tier. Sets 5 and 6 themselves are measured with `python -m routing eval --golden`, not here."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def powers():
    return load_router("powers")


def test_commit_is_gits_own_word_so_committing_local_changes_activates_git(powers):
    # "commit" is git's own verb (git commit); GitHub shows commits but does not make them.
    r = powers.route("commit my local changes with the message fix typo", today=TODAY).to_dict()
    assert r["status"] == "activated" and r["power"]["name"] == "git"


def test_commits_with_nothing_saying_where_offer_git_and_github(powers):
    r = powers.route("show me the latest commits", today=TODAY).to_dict()
    assert r["status"] == "multiple_matches"
    assert {"git", "github"} <= {m["name"] for m in r["matches"]}
