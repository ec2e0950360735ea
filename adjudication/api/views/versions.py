"""The adjudicator's endpoint: the annotators' submitted versions of the topic of an
adjudication annotation. Only its adjudicator (and admins) may read it; anyone else gets
the one 404 (annotation.selectors.access)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from adjudication.api.serializers.versions import AnnotatorVersion
from adjudication.selectors.versions import adjudication_versions


class AdjudicationVersionsView(APIView):
    @extend_schema(responses=AnnotatorVersion(many=True))
    def get(self, request, pk: int):
        versions = adjudication_versions(user=request.user, annotation_id=pk)
        # As built, like the workspace's other big answers (annotation/api/views/workspace.py,
        # _AS_BUILT): five versions of a 1,000-mention topic are thousands of nested fields,
        # and tests/adjudication/test_adjudication_versions.py proves the serializer agrees.
        return Response([vars(version) for version in versions])
