"""deploy/kubernetes: rendered as `kubectl apply -k` would (namespace and image set on every
object), every object valid against the Kubernetes schemas (kubernetes-validate, offline),
and the objects do what the README says (probes, GPUs, the Secret, the same commands as
`make up`)."""

from __future__ import annotations

import copy

import kubernetes_validate
import pytest
import yaml

from corefapp.runtime import commands
from modelserve import queues as queues_module
from modelserve.backends import available_backends
from tests.paths import REPO

KUBE = REPO / "deploy" / "kubernetes"
# The oldest Kubernetes minor still supported upstream when this was written: CronJob's
# timeZone is GA since 1.27.
K8S_VERSION = "1.31.0"


def render() -> list[dict]:
    """kustomize's two transformations this kustomization uses: namespace and image."""
    kustomization = yaml.safe_load((KUBE / "kustomization.yaml").read_text())
    image = kustomization["images"][0]
    new_image = f"{image['newName']}:{image['newTag']}"
    objects = []
    for name in kustomization["resources"]:
        for document in yaml.safe_load_all((KUBE / name).read_text()):
            rendered = copy.deepcopy(document)
            if rendered["kind"] != "Namespace":
                rendered["metadata"]["namespace"] = kustomization["namespace"]
            for container in containers(rendered):
                if container["image"] == image["name"]:
                    container["image"] = new_image
            objects.append(rendered)
    return objects


def pod_spec(obj: dict) -> dict | None:
    if obj["kind"] == "CronJob":
        return obj["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    if obj["kind"] in ("Deployment", "Job"):
        return obj["spec"]["template"]["spec"]
    return None


def containers(obj: dict) -> list[dict]:
    spec = pod_spec(obj)
    return [] if spec is None else spec.get("initContainers", []) + spec["containers"]


def find(objects: list[dict], kind: str, name: str) -> dict:
    return next(o for o in objects if o["kind"] == kind and o["metadata"]["name"] == name)


OBJECTS = render()


@pytest.mark.parametrize(
    "obj", OBJECTS, ids=[f"{o['kind']}/{o['metadata']['name']}" for o in OBJECTS]
)
def test_every_object_is_valid_against_the_kubernetes_schema(obj):
    kubernetes_validate.validate(obj, K8S_VERSION, strict=True)


def test_the_secret_example_is_valid_and_names_what_the_pods_read():
    secret = yaml.safe_load((KUBE / "secret.example.yaml").read_text())
    kubernetes_validate.validate(secret, K8S_VERSION, strict=True)
    assert set(commands.REQUIRED_ENV) <= set(secret["stringData"])


def test_the_validation_rejects_a_broken_object():
    web = copy.deepcopy(find(OBJECTS, "Deployment", "corefapp-web"))
    web["spec"]["replicas"] = "three"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(web, K8S_VERSION, strict=True)


def test_every_application_pod_reads_the_secret_and_the_config():
    for obj in OBJECTS:
        for container in containers(obj):
            sources = {next(iter(s.values()))["name"] for s in container.get("envFrom", [])}
            assert {"corefapp-secrets", "corefapp-config"} <= sources, obj["metadata"]["name"]
            assert container["image"] == "registry.example.org/corefapp:latest"


def test_web_replicas_probe_healthz_and_wait_for_the_migrations():
    web = find(OBJECTS, "Deployment", "corefapp-web")
    assert web["spec"]["replicas"] >= 2
    container = web["spec"]["template"]["spec"]["containers"][0]
    assert container["command"] == commands.web_command(host="0.0.0.0", port=8000)
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"]["path"] == "/healthz"
    wait = web["spec"]["template"]["spec"]["initContainers"][0]
    assert wait["command"] == commands.migrations_applied_command()
    job = find(OBJECTS, "Job", "corefapp-migrate")
    assert job["spec"]["template"]["spec"]["containers"][0]["command"] == (
        commands.prepare_command()
    )
    ingress = find(OBJECTS, "Ingress", "corefapp")
    backend = ingress["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]
    service = find(OBJECTS, "Service", backend["name"])
    assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
    assert (
        int(ingress["metadata"]["annotations"]["nginx.ingress.kubernetes.io/proxy-read-timeout"])
        >= 3600
    )


# The SciCo baselines compute on the CPU; every other model wants a GPU.
CPU_MODELS = {"edit-distance", "same-head-lemma", "singleton"}


def model_pools() -> dict[str, list[str]]:
    """Each models Deployment's name -> the backends whose queues it consumes."""
    pools = {}
    for obj in OBJECTS:
        if (
            obj["kind"] == "Deployment"
            and obj["metadata"]["labels"].get("app.kubernetes.io/component") == "models"
        ):
            command = containers(obj)[0]["command"]
            queues = command[command.index("-Q") + 1].split(",")
            pools[obj["metadata"]["name"]] = [q.removeprefix(queues_module.PREFIX) for q in queues]
    return pools


def test_the_default_worker_runs_make_ups_command():
    worker = find(OBJECTS, "Deployment", "corefapp-worker")
    assert containers(worker)[0]["command"] == commands.worker_command()


def test_every_models_queue_is_consumed_by_exactly_one_models_deployment():
    consumed = [backend for backends in model_pools().values() for backend in backends]
    assert sorted(consumed) == sorted(available_backends())
    assert len(model_pools()) > 1


@pytest.mark.parametrize("name", sorted(model_pools()))
def test_a_models_deployment_runs_the_worker_command_for_its_models_with_a_gpu_if_they_need_one(
    name,
):
    backends = model_pools()[name]
    deployment = find(OBJECTS, "Deployment", name)
    container = containers(deployment)[0]
    pool = deployment["metadata"]["labels"]["corefapp/model-pool"]
    assert container["command"] == commands.model_worker_command(backends, name=f"models-{pool}")
    limits = container["resources"]["limits"]
    if set(backends) <= CPU_MODELS:
        assert "nvidia.com/gpu" not in limits
    else:
        assert limits["nvidia.com/gpu"] == 1
        assert len(backends) == 1  # a GPU process loads one model: a queue of its own


def test_a_daily_backup_keeps_seven():
    cron = find(OBJECTS, "CronJob", "corefapp-backup")
    minute, hour, *every = cron["spec"]["schedule"].split()
    assert every == ["*", "*", "*"]
    assert minute.isdigit()
    assert hour.isdigit()
    assert containers(cron)[0]["command"] == commands.backup_command("/backups")
    assert "BACKUP_KEEP:-7" in commands.backup_command()[-1]
