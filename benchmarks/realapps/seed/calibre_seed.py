"""Build a calibre library of public-domain classics for calibre's content server.

Each book is a short EPUB made by calibre's own ``ebook-convert`` from its opening lines
(typed here, public domain), with calibre's generated cover, then added with ``calibredb``
and given its metadata (authors, year, tags, series, rating, publisher, description).
The same library every reseed. Usage: python calibre_seed.py LIBRARY_DIR SCRATCH_DIR
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# title, author, year, tags, series (name, index) or None, rating (0-5), description, opening
BOOKS = [
    (
        "Pride and Prejudice",
        "Jane Austen",
        1813,
        "Classics, Romance",
        None,
        5,
        "Elizabeth Bennet and the proud Mr Darcy misjudge each other across a season of balls, visits and a disastrous proposal.",
        "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife.\n\nHowever little known the feelings or views of such a man may be on his first entering a neighbourhood, this truth is so well fixed in the minds of the surrounding families, that he is considered the rightful property of some one or other of their daughters.\n\n“My dear Mr. Bennet,” said his lady to him one day, “have you heard that Netherfield Park is let at last?”\n\nMr. Bennet replied that he had not.\n\n“But it is,” returned she; “for Mrs. Long has just been here, and she told me all about it.”\n\nMr. Bennet made no answer.\n\n“Do you not want to know who has taken it?” cried his wife impatiently.\n\n“You want to tell me, and I have no objection to hearing it.”\n\nThis was invitation enough.\n\n“Why, my dear, you must know, Mrs. Long says that Netherfield is taken by a young man of large fortune from the north of England; that he came down on Monday in a chaise and four to see the place, and was so much delighted with it, that he agreed with Mr. Morris immediately; that he is to take possession before Michaelmas, and some of his servants are to be in the house by the end of next week.”\n\n“What is his name?”\n\n“Bingley.”",
    ),
    (
        "Emma",
        "Jane Austen",
        1815,
        "Classics, Romance",
        None,
        4,
        "Handsome, clever and rich, Emma Woodhouse meddles in her neighbours' love lives, with mixed results.",
        "Emma Woodhouse, handsome, clever, and rich, with a comfortable home and happy disposition, seemed to unite some of the best blessings of existence; and had lived nearly twenty-one years in the world with very little to distress or vex her.",
    ),
    (
        "Moby-Dick",
        "Herman Melville",
        1851,
        "Classics, Adventure, Sea stories",
        None,
        4,
        "Ishmael signs on to the whaler Pequod, whose captain is set on hunting down the white whale that took his leg.",
        "Call me Ishmael. Some years ago—never mind how long precisely—having little or no money in my purse, and nothing particular to interest me on shore, I thought I would sail about a little and see the watery part of the world.",
    ),
    (
        "Frankenstein",
        "Mary Shelley",
        1818,
        "Classics, Gothic, Science Fiction",
        None,
        5,
        "A young scientist gives life to a creature and then abandons it, with tragic consequences for both.",
        "You will rejoice to hear that no disaster has accompanied the commencement of an enterprise which you have regarded with such evil forebodings. I arrived here yesterday, and my first task is to assure my dear sister of my welfare and increasing confidence in the success of my undertaking.",
    ),
    (
        "Dracula",
        "Bram Stoker",
        1897,
        "Classics, Gothic, Horror",
        None,
        4,
        "Told in letters and diaries: a solicitor's visit to Transylvania, and the Count's arrival in England.",
        "3 May. Bistritz.—Left Munich at 8:35 P.M., on 1st May, arriving at Vienna early next morning; should have arrived at 6:46, but train was an hour late.",
    ),
    (
        "The Adventures of Sherlock Holmes",
        "Arthur Conan Doyle",
        1892,
        "Classics, Mystery, Short stories",
        ("Sherlock Holmes", 3),
        5,
        "Twelve cases of the consulting detective and Dr Watson, from A Scandal in Bohemia to The Copper Beeches.",
        "To Sherlock Holmes she is always the woman. I have seldom heard him mention her under any other name.",
    ),
    (
        "A Study in Scarlet",
        "Arthur Conan Doyle",
        1887,
        "Classics, Mystery",
        ("Sherlock Holmes", 1),
        4,
        "The first meeting of Holmes and Watson, and a murder in an empty house off the Brixton Road.",
        "In the year 1878 I took my degree of Doctor of Medicine of the University of London, and proceeded to Netley to go through the course prescribed for surgeons in the army.",
    ),
    (
        "The Sign of the Four",
        "Arthur Conan Doyle",
        1890,
        "Classics, Mystery",
        ("Sherlock Holmes", 2),
        4,
        "A young woman receives a pearl every year from an unknown sender; Holmes follows the trail to a stolen treasure.",
        "Sherlock Holmes took his bottle from the corner of the mantel-piece and his hypodermic syringe from its neat morocco case.",
    ),
    (
        "The Time Machine",
        "H. G. Wells",
        1895,
        "Classics, Science Fiction",
        None,
        4,
        "A Victorian inventor travels to the year 802,701 and finds humanity divided in two.",
        "The Time Traveller (for so it will be convenient to speak of him) was expounding a recondite matter to us. His grey eyes shone and twinkled, and his usually pale face was flushed and animated.",
    ),
    (
        "The War of the Worlds",
        "H. G. Wells",
        1898,
        "Classics, Science Fiction",
        None,
        4,
        "Martian cylinders land in Surrey, and a narrator flees across a collapsing England.",
        "No one would have believed in the last years of the nineteenth century that this world was being watched keenly and closely by intelligences greater than man's and yet as mortal as his own.",
    ),
    (
        "Jane Eyre",
        "Charlotte Brontë",
        1847,
        "Classics, Romance, Gothic",
        None,
        5,
        "An orphan becomes governess at Thornfield Hall and falls for its brooding master, who keeps a secret in the attic.",
        "There was no possibility of taking a walk that day. We had been wandering, indeed, in the leafless shrubbery an hour in the morning; but since dinner the cold winter wind had brought with it clouds so sombre, and a rain so penetrating, that further out-door exercise was now out of the question.",
    ),
    (
        "Little Women",
        "Louisa May Alcott",
        1868,
        "Classics, Family",
        None,
        4,
        "Meg, Jo, Beth and Amy March grow up in Massachusetts while their father is away at war.",
        "“Christmas won't be Christmas without any presents,” grumbled Jo, lying on the rug.",
    ),
    (
        "Alice's Adventures in Wonderland",
        "Lewis Carroll",
        1865,
        "Classics, Fantasy, Children",
        None,
        5,
        "Alice follows a White Rabbit down a hole into a world of riddles, tea parties and a furious Queen.",
        "Alice was beginning to get very tired of sitting by her sister on the bank, and of having nothing to do: once or twice she had peeped into the book her sister was reading, but it had no pictures or conversations in it, “and what is the use of a book,” thought Alice “without pictures or conversations?”",
    ),
    (
        "The Call of the Wild",
        "Jack London",
        1903,
        "Classics, Adventure",
        None,
        4,
        "Buck, a pet dog stolen from California, becomes a sled dog in the Klondike gold rush.",
        "Buck did not read the newspapers, or he would have known that trouble was brewing, not alone for himself, but for every tide-water dog, strong of muscle and with warm, long hair, from Puget Sound to San Diego.",
    ),
    (
        "Great Expectations",
        "Charles Dickens",
        1861,
        "Classics",
        None,
        4,
        "Pip, an orphan in the Kent marshes, is given the means to become a gentleman by a secret benefactor.",
        "My father's family name being Pirrip, and my Christian name Philip, my infant tongue could make of both names nothing longer or more explicit than Pip. So, I called myself Pip, and came to be called Pip.",
    ),
    (
        "Middlemarch",
        "George Eliot",
        1871,
        "Classics",
        None,
        5,
        "Idealistic Dorothea Brooke and the young doctor Lydgate each marry badly in a Midlands town.",
        "Miss Brooke had that kind of beauty which seems to be thrown into relief by poor dress.",
    ),
]


def main() -> None:
    library, scratch = Path(sys.argv[1]), Path(sys.argv[2])
    library.mkdir(parents=True, exist_ok=True)
    scratch.mkdir(parents=True, exist_ok=True)
    for number, (title, author, year, tags, series, rating, description, opening) in enumerate(
        BOOKS
    ):
        text = scratch / f"book{number:02d}.txt"
        text.write_text(
            f"# {title}\n\n*by {author}*\n\n## Chapter 1\n\n{opening}\n", encoding="utf-8"
        )
        epub = scratch / f"book{number:02d}.epub"
        argv = [
            "ebook-convert",
            str(text),
            str(epub),
            "--title",
            title,
            "--authors",
            author,
            "--pubdate",
            f"{year}-06-15",
            "--tags",
            tags,
            "--comments",
            description,
            "--publisher",
            "Public domain",
            "--rating",
            str(rating * 2),
            "--language",
            "en",
            "--input-encoding",
            "utf-8",
            "--formatting-type",
            "markdown",
        ]
        if series:
            argv += ["--series", series[0], "--series-index", str(series[1])]
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        subprocess.run(
            ["calibredb", "add", "--library-path", str(library), str(epub)],
            check=True,
            stdout=subprocess.DEVNULL,
        )


if __name__ == "__main__":
    main()
