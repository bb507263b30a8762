"""suggest_docs.py - the committed documents of an `explain --suggest --run` call (what scripts/suggest_gpu.sh
wrote into DIR): DIR/json/NAME.json, or packed as DIR/json.tar.gz or .tar.xz (json/NAME.json inside, results/ lean).
Used by suggest_table.py and suggest_repredict.py."""
import json
import os
import tarfile


class Committed:
    def __init__(self, d):
        packed = os.path.join(d, 'json.tar.xz')
        packed = packed if os.path.exists(packed) else packed[:-2] + 'gz'
        self.d = d
        self.tar = tarfile.open(packed) if os.path.exists(packed) else None

    def load(self, name):
        """The document of pattern NAME; raises OSError (KeyError from the tar as OSError) when there is none."""
        if self.tar is None:
            return json.load(open(os.path.join(self.d, 'json', name + '.json')))
        try:
            return json.load(self.tar.extractfile('json/' + name + '.json'))
        except KeyError as e:
            raise FileNotFoundError(f'json/{name}.json not in {self.tar.name}') from e
