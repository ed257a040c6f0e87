"""scripts/bench strip: 200 located camera JPEGs stripped in place, `mediatool strip --in-place`
against `exiftool -overwrite_original` removing the same tags (position, serial numbers, owner,
maker notes). The photos are the real-world corpus's camera and phone JPEGs (scripts/realworld
fetches them; real maker notes included), each given a position, serials and an owner by exiftool,
cycled to 200 files. Each round starts from the same files: the work folder is hard links to them,
and both tools replace a file by renaming a new one over it, so the originals stay as they are.
Target: 20x exiftool; afterwards exiftool -a -G1 -ee finds no position, serial or owner, and the
entropy-coded data of every photo is byte for byte the same."""
import os
import shutil
import statistics
import subprocess
import time

from measure import arguments, table

MEDIATOOL = os.environ["MEDIATOOL"]
FOLDER = os.environ["BENCH_DIR"]
CORPUS = os.environ.get("MEDIATOOL_CORPUS", os.path.expanduser("~/.cache/mediatool-realworld"))
COUNT = 200
LOCATED = ["-GPSLatitude=48.8583", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", "-GPSAltitude=35",
           "-SerialNumber=SN-0042", "-LensSerialNumber=LS-7", "-OwnerName=Alice Example", "-XMP:City=Paris",
           "-XMP:GPSLatitude=48.8583", "-XMP:GPSLongitude=2.2945", "-IPTC:City=Paris"]
# What mediatool strip removes by default, as exiftool names it.
REMOVED = ["-gps:all=", "-xmp:gps*=", "-xmp-photoshop:city=", "-xmp-photoshop:state=", "-xmp-photoshop:country=",
           "-xmp-iptcCore:location=", "-xmp-iptcCore:countrycode=", "-iptc:city=", "-iptc:sub-location=", "-iptc:province-state=",
           "-iptc:country-primarylocationcode=", "-iptc:country-primarylocationname=", "-serialnumber=", "-lensserialnumber=",
           "-xmp:serialnumber=", "-xmp:lensserialnumber=", "-ownername=", "-xmp:ownername=", "-makernotes:all="]
REVEALING = ("GPS", "Serial", "Owner", "City", "Country", "Location")


def camera_jpegs():
    """The corpus's JPEGs of at least 100 KB, in a fixed order."""
    found = []
    for top, _, names in os.walk(os.path.join(CORPUS, "files")):
        for name in names:
            path = os.path.join(top, name)
            if name.lower().endswith((".jpg", ".jpeg")) and not os.path.islink(path) and os.path.getsize(path) >= 100_000:
                found.append(path)
    if len(found) < 10:
        raise SystemExit("bench: fewer than 10 camera JPEGs in the corpus: run scripts/realworld first")
    return sorted(found)


def originals():
    """200 located copies, made once."""
    folder = os.path.join(FOLDER, "strip-originals")
    shutil.rmtree(folder + ".part", ignore_errors=True)
    if os.path.isdir(folder) and len(os.listdir(folder)) == COUNT:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder + ".part")
    # Each source located once; those exiftool cannot write (a truncated IFD0) are left out.
    sources = []
    for index, path in enumerate(camera_jpegs()):
        located = os.path.join(folder + ".part", f"source-{index:03d}.jpg")
        shutil.copy(path, located)
        if subprocess.run(["exiftool", "-q", "-q", "-m", "-overwrite_original", *LOCATED, located], capture_output=True).returncode == 0:
            sources.append(located)
        else:
            os.remove(located)
    for index in range(COUNT):
        shutil.copy(sources[index % len(sources)], os.path.join(folder + ".part", f"photo-{index:03d}.jpg"))
    for located in sources:
        os.remove(located)
    os.rename(folder + ".part", folder)
    return folder


def fresh(originals_folder, name):
    """A work folder of hard links to the originals."""
    folder = os.path.join(FOLDER, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for entry in sorted(os.listdir(originals_folder)):
        os.link(os.path.join(originals_folder, entry), os.path.join(folder, entry))
    return folder


def timed(command):
    started = time.perf_counter()
    process = subprocess.run(["/usr/bin/time", "-f", "%M", *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    if process.returncode != 0:
        raise SystemExit(f"bench: {command[0]} failed: {process.stderr.decode(errors='replace')[-500:]}")
    return elapsed, int(process.stderr.split()[-1])


def scan(path):
    """The main picture's scans: from its SOS, found by walking its segments (a maker note or
    thumbnail holds SOS markers of its own), to its EOI. What strip must leave alone."""
    with open(path, "rb") as file:
        data = file.read()
    index = 2
    while index + 4 <= len(data):
        if data[index] != 0xFF or data[index + 1] == 0xFF:
            index += 1
            continue
        if data[index + 1] == 0xDA:
            # To its EOI (0xFF 0xD9 cannot stand in entropy-coded data): what follows (an MPF
            # picture, a Motion Photo's video) has metadata of its own, which strip strips too.
            end = data.find(b"\xff\xd9", index)
            return data[index:end + 2 if end >= 0 else len(data)]
        index += 2 + int.from_bytes(data[index + 2:index + 4], "big")
    return b""


def main():
    options = arguments(__doc__)
    source = originals()
    names = sorted(os.listdir(source))
    tools = {
        "mediatool strip --in-place": lambda folder: [MEDIATOOL, "strip", "--quiet", "--in-place", folder],
        "mediatool strip --in-place --no-fsync": lambda folder: [MEDIATOOL, "strip", "--quiet", "--in-place", "--no-fsync", folder],
        "mediatool strip --in-place --sandbox off": lambda folder: [MEDIATOOL, "strip", "--quiet", "--in-place", "--sandbox", "off", folder],
        "exiftool -overwrite_original": lambda folder: ["exiftool", "-q", "-q", "-m", "-overwrite_original", *REMOVED, folder],
    }
    samples = {name: [] for name in tools}
    for _ in range(options.runs):
        for name, command in tools.items():
            folder = fresh(source, "strip-work")
            samples[name].append(timed(command(folder)))
    results = {name: (statistics.median(s for s, _ in values), statistics.median(m for _, m in values)) for name, values in samples.items()}
    print(f"{len(names)} located camera JPEGs ({sum(os.path.getsize(os.path.join(source, n)) for n in names) / 2**20:.0f} MiB), "
          f"median of {options.runs} runs")
    table(results)
    ours = results["mediatool strip --in-place"][0]
    exiftool = results["exiftool -overwrite_original"][0]
    unsynced = results["mediatool strip --in-place --no-fsync"][0]
    print(f"mediatool strip: {1000 * ours / len(names):.2f} ms a file; {exiftool / ours:.1f}x exiftool (target >= 20); "
          f"without syncing each file to the disk, as exiftool does not: {exiftool / unsynced:.1f}x")
    # What each left: mediatool's outputs checked by exiftool, the entropy-coded data by byte.
    folder = fresh(source, "strip-work")
    subprocess.run(tools["mediatool strip --in-place"](folder), check=True)
    listing = subprocess.run(["exiftool", "-a", "-G1", "-s", "-ee", "-m", folder], check=True, capture_output=True, text=True).stdout
    left = sorted({line.split(":")[0].strip() for line in listing.splitlines() if any(word in line.split(":")[0] for word in REVEALING)})
    same = sum(scan(os.path.join(folder, n)) == scan(os.path.join(source, n)) for n in names)
    print(f"exiftool -a -G1 -ee finds: {left if left else 'no position, serial or owner'}; entropy-coded data the same in {same} of {len(names)}")


if __name__ == "__main__":
    main()
