"""Who may call what: admin-only views derive from AdminView (used by both apps' APIs)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission
from rest_framework.views import APIView

from annotation.selectors.access import is_admin


class IsAdmin(BasePermission):
    message = "Only admins can do this."

    def has_permission(self, request, view):
        return is_admin(request.user)


class AdminView(APIView):
    permission_classes = (IsAdmin,)
