"""Admin endpoints of the dataset release: a project's statistics (JSON or CSV) and splits,
and one topic's split."""

from __future__ import annotations

from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import content_disposition_header
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from annotation.errors import Conflict
from annotation.models import Project, Topic
from datasets.api.serializers import (
    ProjectSplits,
    ReleaseJobPayload,
    ReleaseRequest,
    SplitOutcomePayload,
    SplitRequest,
    StatisticsPage,
    StatisticsQuery,
    TopicSplit,
)
from datasets.models import ReleaseJob
from datasets.release_selectors import latest_release_jobs
from datasets.selectors import project_splits, statistics_csv, statistics_page, stored_release
from datasets.services.release_jobs import release_job_create
from datasets.services.splits import dataset_split, topic_split_set
from foundation.api.permissions import AdminView
from foundation.api.schema import refuses


class StatisticsView(AdminView):
    @extend_schema(
        parameters=[
            OpenApiParameter(
                "source", str, description="gold (default) | adjudicated | submitted | a username"
            ),
            OpenApiParameter("format", str, enum=["json", "csv"]),
        ],
        responses={(200, "application/json"): StatisticsPage, (200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        query = StatisticsQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        page = statistics_page(project, query.validated_data["source"] or None)
        if query.validated_data["format"] != "csv":
            return Response(StatisticsPage(page).data)
        response = HttpResponse(statistics_csv(page), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = content_disposition_header(
            as_attachment=True, filename=f"{project.name}-statistics.csv"
        )
        return response


class ReleaseView(AdminView):
    """The project's release bundle, kept in the default storage (var/ or the STORAGE_URL
    bucket): POST queues its build on the worker (202, the job to poll; the stored bundle is
    replaced once built), GET downloads the stored one."""

    # A second release build of a project while one is queued or running.
    @refuses(Conflict)
    @extend_schema(request=ReleaseRequest, responses={202: ReleaseJobPayload})
    def post(self, request, pk: int):
        data = ReleaseRequest(data=request.data)
        data.is_valid(raise_exception=True)
        job = release_job_create(
            project=get_object_or_404(Project, pk=pk),
            formats=data.validated_data.get("formats") or None,
            with_names=data.validated_data["with_names"],
            source=data.validated_data["source"] or None,
            user=request.user,
        )
        return Response(ReleaseJobPayload(job).data, status=202)

    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request, pk: int):
        project = get_object_or_404(Project, pk=pk)
        stored = stored_release(project)
        if stored is None:
            raise NotFound("No release of this project is stored yet: make one first.")
        return FileResponse(stored, as_attachment=True, filename=stored.name.rsplit("/", 1)[-1])


class ProjectReleaseJobsView(AdminView):
    @extend_schema(responses=ReleaseJobPayload(many=True))
    def get(self, request, pk: int):
        """The project's latest release jobs, newest first (the Datasets page's row)."""
        jobs = latest_release_jobs(get_object_or_404(Project, pk=pk))
        return Response(ReleaseJobPayload(jobs, many=True).data)


class ReleaseJobView(AdminView):
    @extend_schema(responses=ReleaseJobPayload)
    def get(self, request, pk: int):
        return Response(ReleaseJobPayload(get_object_or_404(ReleaseJob, pk=pk)).data)


class ProjectSplitsView(AdminView):
    @extend_schema(responses=ProjectSplits)
    def get(self, request, pk: int):
        return Response(ProjectSplits(project_splits(get_object_or_404(Project, pk=pk))).data)

    @extend_schema(
        request=SplitRequest, responses={200: SplitOutcomePayload, 201: SplitOutcomePayload}
    )
    def post(self, request, pk: int):
        """Split the project's topics (seeded, balanced). A project already split keeps its
        split (200, kept) unless `replace`; a new split answers 201."""
        data = SplitRequest(data=request.data)
        data.is_valid(raise_exception=True)
        outcome = dataset_split(
            project=get_object_or_404(Project, pk=pk),
            ratios=data.validated_data["ratios"],
            names=data.validated_data.get("names") or None,
            seed=data.validated_data["seed"],
            balance=data.validated_data.get("balance"),
            force=data.validated_data["replace"],
        )
        return Response(
            SplitOutcomePayload(outcome.as_dict()).data, status=200 if outcome.kept else 201
        )


class TopicSplitView(AdminView):
    @extend_schema(request=TopicSplit, responses=TopicSplit)
    def patch(self, request, pk: int):
        data = TopicSplit(data=request.data)
        data.is_valid(raise_exception=True)
        topic = topic_split_set(
            topic=get_object_or_404(Topic, pk=pk), split=data.validated_data["split"]
        )
        return Response(TopicSplit(topic).data)
