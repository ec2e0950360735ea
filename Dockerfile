# Image for docker-compose.yml: the same code and commands as `make up`.
FROM node:20-bookworm-slim AS frontend
WORKDIR /app/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY frontend/ ./
RUN npm run build

FROM python:3.11-slim-bookworm
ENV PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
WORKDIR /app
# CPU build pinned; for the GPU model worker build with TORCH_SPEC="torch==2.13.0" from the
# CUDA index (see README, "Services").
ARG TORCH_SPEC="torch==2.13.0"
ARG TORCH_INDEX="https://download.pytorch.org/whl/cpu"
RUN pip install --no-cache-dir "$TORCH_SPEC" --index-url "$TORCH_INDEX"
COPY pyproject.toml README.md ./
COPY corefapp/ corefapp/
COPY annotation/ annotation/
COPY modelserve/ modelserve/
RUN pip install --no-cache-dir -e .
COPY manage.py ./
COPY fixtures/ fixtures/
COPY --from=frontend /app/frontend/dist frontend/dist
RUN useradd --create-home corefapp && mkdir -p /data && chown corefapp /data
USER corefapp
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "corefapp.asgi:application"]
