# The image docker-compose.yml and deploy/kubernetes run: the whole checkout (every app, the
# demo data, manage.py) with the built frontend. Each service runs one command of
# corefapp/runtime/commands.py; tests/integration/test_image.py builds this file and runs
# those commands from the image.
#
# The base images are build arguments. The defaults are the public ones; the image test passes
# bases it builds from Debian's packages (tests/integration/image_bases.py), since no registry
# of images is reachable there.
ARG NODE_IMAGE=node:20-bookworm-slim
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${NODE_IMAGE} AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
# --prefer-offline: what npm's cache holds is not fetched again (the test's base holds all).
RUN npm ci --no-audit --no-fund --prefer-offline --loglevel=error
COPY frontend/ ./
# The type check reads the domain twins' golden cases, which live beside the Python tests'.
COPY fixtures/golden/twins/ /app/fixtures/golden/twins/
RUN npm run build

FROM ${PYTHON_IMAGE}
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
WORKDIR /app
# The only difference between the CPU and the GPU image: where torch comes from. The default
# is the CPU build; for a GPU model worker build with
#   --build-arg TORCH_INDEX=https://download.pytorch.org/whl/cu128
# A bare "torch" from PyPI would also be a CUDA build, of several GB; the version is pinned.
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
RUN pip install --no-cache-dir "torch==2.13.0" --index-url "$TORCH_INDEX"
# The dependencies before the code, so that a change of code reuses this layer.
COPY pyproject.toml ./
RUN python -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb")); \
print("\n".join(p["build-system"]["requires"] + ["wheel"] + p["project"]["dependencies"]))' \
    > /tmp/requirements.txt \
 && pip install --no-cache-dir -r /tmp/requirements.txt && rm /tmp/requirements.txt
# Everything .dockerignore lets through: every app, whichever are added later.
COPY . .
# Editable, as make up installs it: the code runs from /app, where settings find manage.py,
# fixtures/ and frontend/dist. The build backend is installed above, so no network is needed.
# The scorer (scorer/, a distribution of its own) first: the application imports it.
RUN pip install --no-cache-dir --no-deps --no-build-isolation \
      -e ./scorer --config-settings editable_mode=compat -e .
COPY --from=frontend /app/frontend/dist frontend/dist
RUN useradd --create-home --uid 1000 corefapp && mkdir -p /data && chown corefapp /data
USER corefapp
ENV COREFAPP_VAR_DIR=/data
EXPOSE 8000
CMD ["python", "-m", "corefapp.runtime.web", "-b", "0.0.0.0", "-p", "8000"]
