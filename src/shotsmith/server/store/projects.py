"""Projects: the apps the operator registers for collections."""

from __future__ import annotations

import json
import shutil
import sqlite3

from ...errors import ConflictError
from .base import StoreBase
from .records import Project, utc_now


class ProjectStore(StoreBase):
    """Projects: the apps the operator registers for collections."""

    # --- projects --------------------------------------------------------------------
    def add_project(
        self,
        *,
        project_id: str,
        name: str,
        platforms: list[str],
        locale: str,
        source_url: str | None,
        source_dir: str | None,
        bundle_id: str = "",
        max_screens: int = 6,
    ) -> Project:
        try:
            row = (
                self._conn()
                .execute(
                    "INSERT INTO projects (project_id, name, platforms, locale, source_url,"
                    " source_dir, bundle_id, max_screens, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    (
                        project_id,
                        name,
                        json.dumps(platforms),
                        locale,
                        source_url,
                        source_dir,
                        bundle_id,
                        max_screens,
                        utc_now(),
                    ),
                )
                .fetchone()
            )
        except sqlite3.IntegrityError:
            raise ConflictError(
                f"a project with id {project_id!r} already exists; remove "
                "it first (shotsmith projects remove) or pick another "
                "--id."
            ) from None
        return Project.from_row(row)

    def get_project(self, project_id: str) -> Project | None:
        row = (
            self._conn()
            .execute("SELECT * FROM projects WHERE project_id = ?", (project_id,))
            .fetchone()
        )
        return Project.from_row(row) if row else None

    def list_projects(self) -> list[Project]:
        rows = self._conn().execute("SELECT * FROM projects ORDER BY project_id")
        return [Project.from_row(r) for r in rows]

    def remove_project(self, project_id: str) -> int | None:
        """Delete a project and its collections (rows and files); the number of collections
        removed, None if there is no such project. Refused while a collection is under way."""
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            if (
                conn.execute(
                    "SELECT 1 FROM projects WHERE project_id = ?", (project_id,)
                ).fetchone()
                is None
            ):
                conn.execute("ROLLBACK")
                return None
            active = conn.execute(
                "SELECT count(*) FROM collections WHERE project_id = ? AND status IN"
                " ('capturing', 'processing')",
                (project_id,),
            ).fetchone()[0]
            if active:
                raise ConflictError(
                    f"project {project_id!r} has {active} collection(s) still "
                    "capturing or processing; wait until they finish, or "
                    "stop the server, then remove it."
                )
            ids = [
                r[0]
                for r in conn.execute(
                    "DELETE FROM collections WHERE project_id = ? RETURNING collection_id",
                    (project_id,),
                )
            ]
            conn.execute("DELETE FROM projects WHERE project_id = ?", (project_id,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        for collection_id in ids:
            shutil.rmtree(self.collection_dir(collection_id), ignore_errors=True)
        return len(ids)
