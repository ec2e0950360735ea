"""The release bundle from the Datasets page: made on the server, kept in the default storage
(var/ here; the bucket with STORAGE_URL, tests/corefapp/test_object_storage.py), and
downloaded through the app."""

from __future__ import annotations

import json
import zipfile

from django.core.files.storage import default_storage
from playwright.sync_api import expect

from annotation.models import Project
from annotation.services.imports.topics import topics_import
from datasets.selectors import release_name
from tests.factories import AdminFactory
from tests.paths import SCICO_DEMO


def test_an_admin_makes_the_release_bundle_and_downloads_it(new_page, tmp_path):
    project = Project.objects.create(name="Release e2e", hierarchy=True)
    topics_import(project=project, path=SCICO_DEMO, format="scico")
    page = new_page(AdminFactory())
    page.goto("/manage/datasets")
    row = page.locator(f"tr[data-project='{project.pk}']")
    try:
        row.get_by_role("button", name="Make release bundle").click()
        link = row.get_by_role("link", name="Download")
        expect(link).to_be_visible(timeout=30_000)
        with page.expect_download() as download:
            link.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)

        assert saved.name == "Release e2e-release.zip"
        bundle = zipfile.ZipFile(saved)
        assert "DATASHEET.md" in bundle.namelist()
        released = [json.loads(line) for line in bundle.read("scico/all.jsonl").splitlines()]
        assert len(released) == project.topics.count()
        assert page.errors == []
    finally:
        default_storage.delete(release_name(project))
