"""The two base images the image test builds the Dockerfile on, made here without a registry.

No image registry is reachable from these machines, so `FROM python:3.11-slim-bookworm` and
`FROM node:20-bookworm-slim` cannot be pulled. The Dockerfile takes both as build arguments;
the test passes these instead, built from Debian's own packages:

- python: `debootstrap --variant=minbase bookworm` with Debian's Python 3.11, and a virtual
  environment at /opt/venv holding the pip packages pyproject.toml asks for (torch's CPU build
  included), copied from what this machine's pip install already fetched, so the
  Dockerfile's `pip install` lines find everything installed and never go to the network from
  inside a container;
- node: the same Debian tree with this machine's Node.js (Debian's bookworm has Node 18,
  older than Vite needs) and an npm cache filled from the frontend's lockfile, so the
  Dockerfile's `npm ci --prefer-offline` installs from the cache.

Every download happens here, on the host, at install time (`make image-bases`, which `make
test` runs): pip and npm with this machine's registry settings, debootstrap from Debian's
mirror. Each base is written once as a tarball under var/image-bases/, named by a hash of what
goes into it (the dependency list, the lockfile, this file); the test `docker import`s it.

Run as root (debootstrap and chroot need it): `python -m tests.integration.image_bases`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OUT = Path(os.environ.get("COREFAPP_VAR_DIR", REPO / "var")) / "image-bases"
SUITE = "bookworm"
# libstdc++6: Node.js and torch link it; python3-venv: the /opt/venv of the python base.
DEBIAN_PACKAGES = "python3,python3-venv,ca-certificates,libstdc++6"
VENV = "/opt/venv"
PATH_IN_IMAGE = f"{VENV}/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def dependencies() -> list[str]:
    """What the image's pip installs: pyproject's dependencies and the build backend."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    build = project["build-system"]["requires"]
    return [*build, "wheel", *project["project"]["dependencies"]]


def _digest(*parts: bytes) -> str:
    digest = hashlib.sha256(Path(__file__).read_bytes())
    for part in parts:
        digest.update(part)
    return digest.hexdigest()[:12]


def python_tag() -> str:
    return f"corefapp-base-python:{_digest(chr(10).join(dependencies()).encode())}"


def node_tag() -> str:
    lockfile = (REPO / "frontend" / "package-lock.json").read_bytes()
    version = subprocess.run([node_binary(), "--version"], check=True, capture_output=True).stdout
    return f"corefapp-base-node:{_digest(lockfile, version)}"


def tarball(tag: str) -> Path:
    return OUT / f"{tag.replace(':', '-')}.tar"


def node_binary() -> Path:
    found = shutil.which("node")
    if found is None:
        raise SystemExit("error: node not found: the node base copies this machine's Node.js")
    return Path(found).resolve()


def run(*command: str | Path, **kwargs) -> None:
    subprocess.run([str(part) for part in command], check=True, **kwargs)


def debian_tree(root: Path) -> None:
    run(
        "debootstrap",
        "--variant=minbase",
        f"--include={DEBIAN_PACKAGES}",
        SUITE,
        root,
        stdout=subprocess.DEVNULL,
    )
    shutil.rmtree(root / "var" / "cache" / "apt" / "archives", ignore_errors=True)
    shutil.rmtree(root / "var" / "lib" / "apt" / "lists", ignore_errors=True)


def install_python_packages(root: Path) -> None:
    """The pip packages into /opt/venv, from what this machine's pip already has.

    The host's pip first copies every package, at the version the project's environment holds,
    into the tree (`pip download`: from its own cache, find-links folder and indexes, where the
    install that made the environment found them, so nothing is fetched a second time); the
    tree's pip installs those files with no index. Then the tree's own Python (Debian's 3.11.2)
    resolves the list once more: redis asks for async-timeout below 3.11.3, which a resolution
    on the host's 3.11.7 leaves out; only such a missing package comes from the network
    (with the host's resolver settings and its CA bundle: this machine's proxy signs with
    its own)."""
    run("chroot", root, "python3", "-m", "venv", VENV)
    wheels = root / "tmp" / "wheels"
    requirements = root / "tmp" / "requirements.txt"
    constraints = root / "tmp" / "constraints.txt"
    requirements.write_text("\n".join(dependencies()) + "\n")
    host_pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    frozen = subprocess.run(
        [*host_pip, "freeze", "--exclude-editable"], check=True, capture_output=True, text=True
    ).stdout
    constraints.write_text(frozen)
    run(*host_pip, "download", "--quiet", "--dest", wheels, "-r", requirements, "-c", constraints)
    debian_ca = root / "etc" / "ssl" / "certs" / "ca-certificates.crt"
    kept = debian_ca.read_bytes()
    shutil.copyfile("/etc/resolv.conf", root / "etc" / "resolv.conf")
    shutil.copyfile(os.environ.get("PIP_CERT", "/etc/ssl/certs/ca-certificates.crt"), debian_ca)
    pip: list[str | Path] = [
        "chroot",
        root,
        "env",
        "-i",
        "PATH=/usr/bin:/bin",
        "PIP_NO_CACHE_DIR=1",
    ]
    pip += ["PIP_DISABLE_PIP_VERSION_CHECK=1", f"{VENV}/bin/pip", "install", "--quiet"]
    try:
        files = sorted(f"/tmp/wheels/{path.name}" for path in wheels.iterdir())
        run(*pip, "--no-index", "--no-deps", "--find-links", "/tmp/wheels", *files)
        run(*pip, "--find-links", "/tmp/wheels", "-r", "/tmp/requirements.txt")
    finally:
        debian_ca.write_bytes(kept)
        shutil.rmtree(wheels, ignore_errors=True)
        for path in (requirements, constraints, root / "etc" / "resolv.conf"):
            path.unlink(missing_ok=True)


def install_node(root: Path) -> None:
    """This machine's node and npm into the tree, and an npm cache holding every package of
    the frontend's lockfile (filled by the host's npm, from the registry)."""
    node = node_binary()
    shutil.copy2(node, root / "usr" / "bin" / "node")
    global_modules = subprocess.run(
        ["npm", "root", "-g"], check=True, capture_output=True, text=True
    ).stdout.strip()
    npm_root = Path(global_modules).resolve()
    shutil.copytree(npm_root / "npm", root / "usr" / "lib" / "node_modules" / "npm", symlinks=True)
    for name, script in (("npm", "npm-cli.js"), ("npx", "npx-cli.js")):
        (root / "usr" / "bin" / name).symlink_to(f"../lib/node_modules/npm/bin/{script}")
    cache = root / "root" / ".npm"
    with tempfile.TemporaryDirectory() as work:
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(REPO / "frontend" / name, Path(work) / name)
        run(
            "npm",
            "ci",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--cache",
            cache,
            cwd=work,
        )


def write_tarball(root: Path, target: Path) -> None:
    partial = target.with_suffix(".partial")
    run("tar", "--numeric-owner", "-C", root, "-cf", partial, ".")
    partial.chmod(0o600)
    partial.rename(target)


def build(which: str) -> Path:
    tag = python_tag() if which == "python" else node_tag()
    target = tarball(tag)
    if target.exists():
        return target
    # Private like everything under var/ (the trees hold a copy of the CA bundle for a while).
    OUT.mkdir(mode=0o700, parents=True, exist_ok=True)
    OUT.chmod(0o700)
    print(f"building the {which} base image for the image test ({tag})...", flush=True)
    with tempfile.TemporaryDirectory(dir=OUT) as work:
        root = Path(work) / "root"
        debian_tree(root)
        if which == "python":
            install_python_packages(root)
        else:
            install_node(root)
        write_tarball(root, target)
    for stale in OUT.glob(f"corefapp-base-{which}-*.tar"):
        if stale != target:
            stale.unlink()
    return target


def main() -> int:
    if os.geteuid() != 0:
        print(
            "warning: the image test's base images need root (debootstrap, chroot); "
            "the image test will fail and say how to build them",
            file=sys.stderr,
        )
        return 0
    if shutil.which("debootstrap") is None:
        print("error: debootstrap not found: apt-get install debootstrap", file=sys.stderr)
        return 2
    for which in ("python", "node"):
        build(which)
    return 0


if __name__ == "__main__":
    sys.exit(main())
