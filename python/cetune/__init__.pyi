from ._cetune import Extracted as Extracted
from ._cetune import Extractor as Extractor
from ._cetune import __version__ as __version__
from ._cetune import evaluate as evaluate
from ._cetune import score as score
from ._cetune import space as space
