"""scripts/bench sandbox: what decoding in confined workers costs, --sandbox on against off in the
same run: the keyframe thumbnail batch of 40 clips (batch's), a crop batch of 20 24-megapixel
JPEGs (crop's photo), one thumbnail of one 1080p clip and one crop of one photo."""
import os
import shutil

from measure import arguments, compare, table
import batch
import crop

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]


def versus(label, command, runs):
    """Runs `command` with --sandbox on and off; prints the table and the cost of the sandbox."""
    results = compare({"sandbox on": command[:2] + ["--sandbox", "on"] + command[2:],
                       "sandbox off": command[:2] + ["--sandbox", "off"] + command[2:]}, runs)
    print(label)
    table(results)
    on, off = results["sandbox on"][0], results["sandbox off"][0]
    print(f"  sandbox on costs {(on - off) * 1000:+.1f} ms, {(on / off - 1) * 100:+.1f}% "
          f"(peak {results['sandbox on'][1]} KiB against {results['sandbox off'][1]} KiB)\n")


def main():
    options = arguments(__doc__)
    clips = batch.clips()
    jpeg = os.path.join(FOLDER, "photo-24mp-orientation6.jpg")
    crop.pictures(jpeg, os.path.join(FOLDER, "photo-24mp.png"))
    photos = os.path.join(FOLDER, "sandbox-photos")
    shutil.rmtree(photos, ignore_errors=True)
    os.makedirs(photos)
    for index in range(20):
        os.link(jpeg, os.path.join(photos, f"photo{index:02d}.jpg"))
    out = os.path.join(FOLDER, "sandbox-out")
    os.makedirs(out, exist_ok=True)
    rect = "1250,2500,1500,1000"
    print(f"median of {options.runs} runs\n")
    versus("40 clips, keyframe at 10%, --jobs 2", [MEDIATOOL, "thumbnail", "--keyframe", "--jobs", "2", "--at", "10%", "--quiet",
                                                   "--overwrite", "--out-dir", out, *clips], options.runs)
    versus("20 photos of 24 MP, a 1500x1000 crop each, --jobs 2",
           [MEDIATOOL, "crop", "--jobs", "2", "--rect", rect, "--quiet", "--overwrite", "--out-dir", out, photos], options.runs)
    versus("one 1080p clip, exact frame at 10%", [MEDIATOOL, "thumbnail", "--at", "10%", "--overwrite", clips[0],
                                                  "-o", os.path.join(out, "one.png")], options.runs)
    versus("one 24 MP photo, a 1500x1000 crop", [MEDIATOOL, "crop", "--rect", rect, "--overwrite", jpeg,
                                                 "-o", os.path.join(out, "one-crop.png")], options.runs)


if __name__ == "__main__":
    main()
