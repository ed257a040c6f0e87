# mediatool in a container: built in a Swift 6 image on Debian 12 as a Debian package (the Swift
# runtime linked statically), installed into debian:12-slim with only the C libraries it needs.
#   docker build -t mediatool:0.5.0 .
#   docker run --rm -v "$PWD:/data" mediatool:0.5.0 thumbnail /data/clip.mov -o /data/clip.png
FROM swift:6.0-bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/package --out /out

FROM debian:12-slim
COPY --from=build /out/ /tmp/package/
RUN apt-get update \
 && apt-get install -y --no-install-recommends /tmp/package/*.deb \
 && rm -rf /var/lib/apt/lists/* /tmp/package
ENTRYPOINT ["mediatool"]
