"""GET /api/annotations/<id>/flags/: the annotation's flags (its annotator, admins);
PUT / DELETE /api/annotations/<id>/flags/<mention>/: its annotator flags a mention for the
adjudicator, or takes the flag back. The adjudicator reads them with the versions."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from adjudication.api.serializers.flags import Flag, FlagRequest
from adjudication.selectors.flags import own_flags
from adjudication.services.flags import mention_flag_clear, mention_flag_set
from annotation.errors import AnnotationLocked, NotYours
from foundation.api.schema import refuses


class FlagsView(APIView):
    @extend_schema(responses=Flag(many=True))
    def get(self, request, pk: int):
        return Response(Flag(own_flags(request.user, pk), many=True).data)


class FlagView(APIView):
    # The rule of every change (adjudication/services/flags.py).
    @refuses(AnnotationLocked, NotYours)
    @extend_schema(request=FlagRequest, responses=Flag)
    def put(self, request, pk: int, mention: int):
        data = FlagRequest(data=request.data)
        data.is_valid(raise_exception=True)
        flag = mention_flag_set(
            user=request.user,
            annotation_id=pk,
            mention_id=mention,
            comment=data.validated_data["comment"],
        )
        return Response(Flag(flag).data)

    @refuses(AnnotationLocked, NotYours)
    @extend_schema(request=None, responses={204: None})
    def delete(self, request, pk: int, mention: int):
        mention_flag_clear(user=request.user, annotation_id=pk, mention_id=mention)
        return Response(status=204)
