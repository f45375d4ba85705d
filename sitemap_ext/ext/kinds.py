"""What a media URL names, where its extension says it (``urls.named_kind``), against
what its field must be: an image for image:loc and video:thumbnail_loc, a video file
for video:content_loc (I105, V118).

Sources: Google, "Image sitemaps" and "Image SEO best practices" (image:loc is the
image's URL; the formats Google indexes); "Video sitemaps" (thumbnail_loc "the video
thumbnail image file"; content_loc "the actual video media file ... HTML and Flash
aren't supported formats"; player_loc "a player for a specific video", of any form:
not judged here).
"""

from __future__ import annotations

from ..urls import named_kind
from .media import MediaContext

_KIND_NAMES = {"image": "an image", "video": "a video file", "audio": "an audio file",
               "media": "an audio or video file", "document": "a document", "page": "an HTML page",
               "flash": "a Flash file"}
# The image formats Google indexes (Google, "Image SEO best practices").
IMAGE_FORMATS = "BMP, GIF, JPEG, PNG, WebP, SVG or AVIF"


def names(kind: str, url: str) -> str:
    """What a URL names, for a message: "a video file (hero.mp4)"."""
    name = url.partition("?")[0].rpartition("/")[2]
    return f"{_KIND_NAMES.get(kind, 'a ' + kind + ' file')} ({name or url})"


def image_kind(loc: str, ctx: MediaContext) -> str | None:
    """image:loc, None (I105) where it names another kind of file than an image."""
    kind = named_kind(loc)
    if kind is None or kind == "image":
        return loc
    ctx.report("I105", f"the image's URL names {names(kind, loc)}, not an image: Google indexes images only "
               f"({IMAGE_FORMATS}), so this one is ignored; give the image's own URL", "loc")
    return None


# What content_loc may not name: Google reads video files only ("HTML and Flash aren't
# supported formats"); audio, documents and images are no video either.
_NOT_VIDEO = frozenset({"page", "flash", "image", "audio", "document"})


def thumbnail_kind(thumbnail: str | None, content: str | None, ctx: MediaContext) -> str | None:
    """thumbnail_loc, None (V118) where it names another kind of file than an image, or
    is content_loc itself: Google needs an image there, and shows no video result
    without one."""
    if thumbnail is None:
        return None
    kind = named_kind(thumbnail)
    if thumbnail == content and kind != "image":
        kind = kind or "video"  # (content_loc is "the actual video media file")
    if kind is None or kind == "image":
        return thumbnail
    same = ", the same URL as content_loc" if thumbnail == content else ""
    ctx.report("V118", f"thumbnail_loc names {names(kind, thumbnail)}{same}, not an image: Google needs the "
               f"thumbnail image ({IMAGE_FORMATS}) and shows no video result without one; give the thumbnail's "
               "URL", "thumbnail_loc")
    return None


def content_kind(content: str | None, ctx: MediaContext) -> str | None:
    """content_loc, None (V118) where it names an HTML page, a Flash file, an image, an
    audio file or a document: Google reads a video file there, and ignores anything else."""
    if content is None:
        return None
    kind = named_kind(content)
    if kind is None or kind not in _NOT_VIDEO:
        return content
    ctx.report("V118", f"content_loc names {names(kind, content)}, not a video file: Google ignores it (HTML and "
               "Flash are no video formats); give the video file's URL, or the player's as player_loc", "content_loc")
    return None
