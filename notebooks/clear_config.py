"""nbconvert settings to commit a notebook clean: outputs, execution counts and the metadata a
kernel adds (full ``language_info``, timings, widget state) removed; the kernel spec, the
language's name and the cells' tags (``parameters``) kept. From the repository's root:

    .venv/bin/jupyter nbconvert --config notebooks/clear_config.py --clear-output \
        --inplace notebooks/*.ipynb
"""

c = get_config()  # noqa: F821 - nbconvert's config loader provides it

c.ClearMetadataPreprocessor.enabled = True
c.ClearMetadataPreprocessor.preserve_nb_metadata_mask = {"kernelspec", ("language_info", "name")}
c.ClearMetadataPreprocessor.preserve_cell_metadata_mask = {"tags"}
