"""Every commit since the convention began has a subject line of at most 72 characters and a
body that says why (README.md, "Contributing"). Merges are skipped: git writes their subject.

The test reads the history with git. Without git, or outside a git checkout, it fails and says
how to get the history, rather than passing on nothing checked. A shallow clone (CI may clone
with `--depth`) that stops before the first commit checked has its commits checked as far as
they go: HEAD at least, which is what a submission adds last."""

from __future__ import annotations

import shutil
import subprocess

from tests.paths import REPO

# The main branch's last commit before the convention: every commit after it is checked.
START = "1548cf55a4abe95731c647ba9fb594fe9f05d21e"
SUBJECT_MAX = 72


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(REPO), *args], check=False, capture_output=True, text=True, timeout=60
    )


def history_problem() -> str | None:
    """Why the history cannot be checked, in words; None when it can."""
    if shutil.which("git") is None:
        return "git is not installed: install it to check the commit messages"
    if git("rev-parse", "--is-inside-work-tree").stdout.strip() != "true":
        return f"{REPO} is not a git checkout: clone the repository to check its commits"
    if not has_start() and not shallow():
        return f"commit {START[:12]}, where the check starts, is not in this history"
    return None


def has_start() -> bool:
    return git("cat-file", "-e", f"{START}^{{commit}}").returncode == 0


def shallow() -> bool:
    return git("rev-parse", "--is-shallow-repository").stdout.strip() == "true"


def commits_after_start() -> list[tuple[str, str, str]]:
    """(hash, subject, body) of every non-merge commit after START (or, in a shallow clone
    without START, every one it holds), oldest first."""
    since = f"{START}..HEAD" if has_start() else "HEAD"
    listed = git("log", "--no-merges", "--reverse", "--format=%H%x1f%s%x1f%b%x1e", since)
    assert listed.returncode == 0, listed.stderr
    commits = []
    for record in listed.stdout.split("\x1e"):
        if record.strip():
            sha, subject, body = record.strip("\n").split("\x1f")
            commits.append((sha, subject, body))
    return commits


def message_problems(subject: str, body: str) -> list[str]:
    problems = []
    if len(subject) > SUBJECT_MAX:
        problems.append(f"subject of {len(subject)} characters (at most {SUBJECT_MAX})")
    if not body.strip():
        problems.append("no body (a blank line after the subject, then why)")
    return problems


def test_the_rules_refuse_a_long_subject_and_a_missing_body():
    assert message_problems("x" * 72, "Why.") == []
    assert message_problems("x" * 73, "Why.") == ["subject of 73 characters (at most 72)"]
    assert message_problems("Fix", " \n") == ["no body (a blank line after the subject, then why)"]


def test_the_history_since_the_convention_is_here():
    assert history_problem() is None, history_problem()


def test_every_commit_since_the_convention_has_a_short_subject_and_a_body():
    problem = history_problem()
    assert problem is None, problem
    bad = [
        f"{sha[:12]} {subject[:60]!r}: {'; '.join(found)}"
        for sha, subject, body in commits_after_start()
        if (found := message_problems(subject, body))
    ]
    assert bad == [], "commits whose message breaks the convention:\n" + "\n".join(bad)
