"""Who may call what: admin-only views derive from AdminView (every app's API uses it).

Only the generic role check lives here; what a user may see or change of an app's objects
is that app's (annotation.selectors.access, for the core's)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission
from rest_framework.views import APIView

from foundation.roles import is_admin


class IsAdmin(BasePermission):
    message = "Only admins can do this."

    def has_permission(self, request, view):
        return is_admin(request.user)


class AdminView(APIView):
    permission_classes = (IsAdmin,)
