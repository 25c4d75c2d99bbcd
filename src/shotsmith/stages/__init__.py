"""The stages, in the order :meth:`shotsmith.Pipeline.default` runs them.

Each stage is a function from a frame to a frame that adds its own ``<stage>_*`` columns.
A package's ``stage.py`` holds the function; its other modules are the stage's parts.

==================  ======================  ===========================================
module              function                adds
==================  ======================  ===========================================
``read``            ``read_screenshots``    the input frame: one row per screenshot
``capture/``        ``capture``             the input frame from a web app or a folder
``features/``       ``extract_features``    ``features_*``: what each screen shows
``domain/``         ``detect_domain``       ``domain_*``: the set's App Store category
``copy/``           ``write_copy``          ``copy_*``: tagline, headline, subtitle
``layout/``         ``plan_layout``         ``layout_*``: one scene per screenshot
``render``          ``render``              ``render_*``: the PNGs
==================  ======================  ===========================================

``read`` and ``capture`` make the frame the pipeline starts from; ``Pipeline.default``
runs the five after them. Nothing is imported here: ``import shotsmith.stages`` loads no
stage.
"""
