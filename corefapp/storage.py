"""Where stored files live: the local var/ folder, or an S3-compatible bucket (STORAGE_URL).

Import uploads waiting for the worker (imports/), release bundles (releases/) and trained
models (models/) go through Django's default storage. Without STORAGE_URL that is the
file system under var/, as before; with `STORAGE_URL=s3://bucket/prefix` it is
django-storages' S3 backend (boto3), so that no web or worker process needs a disk shared with
another: the bucket is the one copy (docs/object-storage.md).

No Django import here: the settings module calls `storages_setting` while it is read.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

from corefapp.private_files import STORAGE_MODES

LOCAL = "django.core.files.storage.FileSystemStorage"
S3 = "storages.backends.s3.S3Storage"


class StorageUrlError(ValueError):
    pass


def default_storage_setting(
    url: str,
    *,
    var_dir: Path,
    endpoint_url: str = "",
    region: str = "",
    addressing_style: str = "",
) -> dict:
    """The STORAGES["default"] entry for STORAGE_URL (empty: the local var/ folder).
    Credentials are boto3's own: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in the environment,
    a profile, or the pod's role."""
    if not url:
        # Private whatever the umask: Django would chmod every saved file to 0644.
        return {"BACKEND": LOCAL, "OPTIONS": {"location": str(var_dir), **STORAGE_MODES}}
    parsed = urlparse(url)
    if parsed.scheme != "s3" or not parsed.netloc:
        raise StorageUrlError(
            f"STORAGE_URL={url!r} is not understood: write s3://BUCKET or s3://BUCKET/PREFIX"
        )
    options: dict = {
        "bucket_name": parsed.netloc,
        "location": parsed.path.strip("/"),
        # Stored names are chosen by the app (a random part where two could collide), and a
        # model or a release is replaced on purpose when it is written again.
        "file_overwrite": True,
        # Nothing is served from the bucket to browsers: every download goes through the app,
        # which checks who asks.
        "querystring_auth": True,
        "default_acl": None,
    }
    if endpoint_url:
        options["endpoint_url"] = endpoint_url
    if region:
        options["region_name"] = region
    if addressing_style:
        options["addressing_style"] = addressing_style
    return {"BACKEND": S3, "OPTIONS": options}
